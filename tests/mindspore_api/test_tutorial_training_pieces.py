"""Pieces of the optimizer, initializer, layer and mixed-precision tutorials: a weight decay
Cell called with global_step, ops.Dropout2D / Dropout3D (output, mask), an Initializer subclass
written in Python (its _initialize fills a NumPy array), and LossMonitor printing the loss of a
loss-scaled step (a Tensor) as MindSpore does."""
import contextlib
import io
import math

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor, ops
from mindspore.common.initializer import Initializer, initializer

from _check import close, raises


class HalvingDecay(nn.Cell):
    """weight_decay(global_step) = 0.1 * 0.5 ** global_step."""

    def construct(self, global_step):
        return 0.1 * ops.pow(0.5, global_step.astype(ms.float32))


# Momentum with a weight decay Cell: step k uses g + wd(k) * p (global_step before the update).
w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")
opt = nn.Momentum([w], learning_rate=0.1, momentum=0.0, weight_decay=HalvingDecay())
p = np.array([1.0, -2.0])
g = np.array([0.5, 0.25], np.float32)
for step in range(3):
    opt((Tensor(g),))
    p = p - 0.1 * (g + 0.1 * 0.5 ** step * p)
close(w, p.astype(np.float32), 1e-5, 1e-6)
assert int(opt.global_step.asnumpy()[0]) == 3
# Adam and SGD take one too; a weight decay of another type is refused.
nn.Adam([Parameter(Tensor(np.ones(2, np.float32)), name="a")], weight_decay=HalvingDecay())((Tensor(g),))
raises(TypeError, nn.SGD, [w], weight_decay="0.1", match="'weight_decay' should be float")

# Dropout2D: whole (sample, channel) planes kept (scaled by 1 / keep_prob) or zeroed; the mask is
# Bool and of the input's shape; the gradient is mask / keep_prob.
ms.set_seed(3)
x = ops.ones((4, 8, 3, 2))
out, mask = ops.Dropout2D(keep_prob=0.5)(x)
m = mask.asnumpy()
assert mask.dtype == ms.bool_ and m.shape == (4, 8, 3, 2)
assert (m == m[:, :, :1, :1]).all() and 0 < m.mean() < 1
close(out, m * 2.0)
grad = ms.grad(lambda t: ops.Dropout2D(0.5)(t)[0].sum())(x).asnumpy()
assert set(np.unique(grad)) <= {0.0, 2.0} and (grad == grad[:, :, :1, :1]).all()
out3, mask3 = ops.Dropout3D(0.8)(ops.ones((2, 3, 2, 2, 2)))
assert mask3.shape == (2, 3, 2, 2, 2) and set(np.unique(out3.asnumpy())) <= {0.0, 1.25}
raises(ValueError, ops.Dropout2D(0.5), ops.ones((2, 3)), match="the dimension of 'x' must be 4")
raises(ValueError, ops.Dropout2D, 1.5, match="'keep_prob' must be in range [0.0, 1.0]")
assert ops.Dropout2D(0.0)(x)[1].asnumpy().sum() == 0


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__()
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = arr.shape[1] * arr[0, 0].size, arr.shape[0] * arr[0, 0].size
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        arr[:] = np.random.normal(0, std, arr.shape)


np.random.seed(0)
net = nn.Conv2d(3, 64, 3, weight_init=XavierNormal())
np.random.seed(0)
expected = np.random.normal(0, math.sqrt(2.0 / (27 + 576)), (64, 3, 3, 3)).astype(np.float32)
close(net.weight, expected)
assert net.weight.dtype == ms.float32
np.random.seed(1)
t = initializer(XavierNormal(gain=2), (4, 5), ms.float16)
np.random.seed(1)
close(t, np.random.normal(0, 2 * math.sqrt(2.0 / 9), (4, 5)).astype(np.float16), 1e-3, 1e-3)
assert t.dtype == ms.float16
raises(TypeError, initializer, Initializer(), (2, 2), ms.float32, match="must define _initialize")

# LossMonitor: a loss-scaled step returns (loss, overflow, scale) and its loss prints as a Tensor
# (8.410001 in float16 compute), a plain loss as a Python float (8.40999984741211).
data = [(np.ones((2, 3), np.float32), np.full((2, 1), 0.1, np.float32))] * 2
dataset = ms.dataset.GeneratorDataset(data, column_names=["x", "y"])
dense = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
model = ms.train.Model(dense, nn.MSELoss(), nn.SGD(dense.trainable_params(), 0.0),
                       loss_scale_manager=ms.amp.FixedLossScaleManager(), amp_level="O2")
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    model.train(1, dataset, callbacks=[ms.train.LossMonitor(1)])
head, loss_text = printed.getvalue().splitlines()[0].split(", loss is ")
assert head == "epoch: 1 step: 1" and loss_text == str(np.float32(loss_text)), printed.getvalue()
assert abs(float(loss_text) - 8.41) < 1e-2
dense = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
model = ms.train.Model(dense, nn.MSELoss(), nn.SGD(dense.trainable_params(), 0.0))
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    model.train(1, dataset, callbacks=[ms.train.LossMonitor(1)])
d = np.float32(3) - np.float32(0.1)
assert printed.getvalue().splitlines()[0] == "epoch: 1 step: 1, loss is %s" % float(np.float32(d * d)), \
    printed.getvalue()
