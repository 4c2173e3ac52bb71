"""Loss scaling as MindSpore 2.2 documents it: FixedLossScaleManager and DynamicLossScaleManager
(host rule and update cells), TrainOneStepWithLossScaleCell returning (loss, overflow, scale) and
skipping an overflowing step's update, the dynamic scale halving on overflow and doubling after
scale_window good steps, the functional amp.StaticLossScaler / DynamicLossScaler / all_finite,
Model with amp_level and loss_scale_manager, and where MindSpore exports each name."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Parameter, Tensor, amp, ops
from mindspore.train import LossMonitor, Model

from _check import raises

F32 = np.float32

# --- where the names live -----------------------------------------------------------------------
import mindspore.train.amp as train_amp
import mindspore.train.loss_scale_manager as lsm
import mindspore.nn.wrap.loss_scale as wrap_ls

assert amp.build_train_network is train_amp.build_train_network is ms.build_train_network
assert amp.auto_mixed_precision is train_amp.auto_mixed_precision
assert amp.FixedLossScaleManager is lsm.FixedLossScaleManager is ms.FixedLossScaleManager
assert amp.DynamicLossScaleManager is lsm.DynamicLossScaleManager is ms.DynamicLossScaleManager
assert ms.LossScaleManager is lsm.LossScaleManager and ms.train.DynamicLossScaleManager is lsm.DynamicLossScaleManager
assert wrap_ls.TrainOneStepWithLossScaleCell is nn.TrainOneStepWithLossScaleCell
assert wrap_ls.DynamicLossScaleUpdateCell is nn.DynamicLossScaleUpdateCell
assert wrap_ls.FixedLossScaleUpdateCell is nn.FixedLossScaleUpdateCell
assert issubclass(nn.TrainOneStepWithLossScaleCell, nn.TrainOneStepCell)
for name in ("DynamicLossScaler", "StaticLossScaler", "LossScaler", "all_finite", "init_status",
             "custom_mixed_precision", "get_white_list", "get_black_list"):
    assert name in amp.__all__ and hasattr(amp, name), name

# --- managers -----------------------------------------------------------------------------------
raises(ValueError, ms.FixedLossScaleManager, 0.5, match="The argument 'loss_scale' must be >= 1, but got 0.5")
raises(ValueError, ms.DynamicLossScaleManager, 0.5, match="The argument 'init_loss_scale' must be > 1, but got 0.5")
raises(ValueError, ms.DynamicLossScaleManager, 8, 0, match="The argument 'scale_factor' must be > 0, but got 0")
raises(ValueError, ms.DynamicLossScaleManager, 8, 2, 0, match="'scale_window' must be int and must > 0")

fixed = ms.FixedLossScaleManager()
assert fixed.get_loss_scale() == 128.0 and fixed.get_drop_overflow_update() is True
assert isinstance(fixed.get_update_cell(), nn.FixedLossScaleUpdateCell)
assert ms.FixedLossScaleManager(1024, False).get_update_cell() is None
dynamic = ms.DynamicLossScaleManager()
assert dynamic.get_loss_scale() == 2 ** 24 and dynamic.scale_window == 2000 and dynamic.scale_factor == 2
cell = dynamic.get_update_cell()
assert isinstance(cell, nn.DynamicLossScaleUpdateCell) and cell.get_loss_scale() == 2 ** 24

# The host-side rule: divide on overflow, multiply every scale_window steps since the last one.
host = ms.DynamicLossScaleManager(8, 2, 2)
scales = []
for overflow in (False, False, True, False, False, False):
    host.update_loss_scale(overflow)
    scales.append(host.get_loss_scale())
assert scales == [8, 16, 8, 8, 16, 16], scales


# --- the update cells on their own ---------------------------------------------------------------
def run_update_cell(cell, overflows, init):
    scale = Parameter(Tensor(init, ms.float32), name="scale")
    out = []
    for o in overflows:
        result = cell(scale, Tensor(o, ms.bool_))
        assert bool(result.asnumpy()) == o
        out.append(float(scale.asnumpy()))
    return out


assert run_update_cell(nn.DynamicLossScaleUpdateCell(1024.0, 2, 3), [False, False, False, True, False, False, False],
                       1024.0) == [1024, 1024, 2048, 1024, 1024, 1024, 2048]
assert run_update_cell(nn.DynamicLossScaleUpdateCell(2.0, 4, 100), [True, True, True], 2.0) == [1, 1, 1]  # floor 1
assert run_update_cell(nn.FixedLossScaleUpdateCell(64.0), [True, False], 64.0) == [64, 64]


# --- TrainOneStepWithLossScaleCell ------------------------------------------------------------
class Linear(nn.Cell):
    """y = x @ w, computed in float16 (to_float), with a float32 weight."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((2, 1), 0.5, F32)), name="w")

    def construct(self, x):
        return ops.matmul(x, self.w)


def make_step(scale_sense, lr=0.1):
    net = Linear().to_float(ms.float16)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    return net, nn.TrainOneStepWithLossScaleCell(loss_net, opt, scale_sense=scale_sense)


small = Tensor(np.array([[1.0, 2.0]], F32))
big = Tensor(np.array([[300.0, 300.0]], F32))  # d(loss)/dw = 2 * (y - t) * x: about 1.8e5 > 65504
target = Tensor(np.array([[0.0]], F32))

net, step = make_step(nn.DynamicLossScaleUpdateCell(loss_scale_value=1024.0, scale_factor=2, scale_window=2))
w0 = net.w.asnumpy().copy()
loss, overflow, scale = step(big, target)
assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 512.0, (overflow, scale)
assert np.array_equal(net.w.asnumpy(), w0)  # the overflowing step did not update
assert loss.dtype == ms.float32 and float(loss.asnumpy()) == 90000.0, loss  # the float16 y = 300, in MSELoss
history = []
for _ in range(4):
    loss, overflow, scale = step(small, target)
    history.append((bool(overflow.asnumpy()), float(scale.asnumpy())))
# halved to 512 by the overflow, doubled after 2 good steps, and again 2 steps later
assert history == [(False, 512.0), (False, 1024.0), (False, 1024.0), (False, 2048.0)], history
# Good steps update with the unscaled gradient: one SGD step from w0 on the small input.
net_ref, step_ref = make_step(Tensor(np.array(1.0, F32)))
loss_ref, overflow_ref, scale_ref = step_ref(small, target)
y = float(np.float16(np.float16(1.0) * np.float16(0.5) + np.float16(2.0) * np.float16(0.5)))
grad = np.array([[2 * y * 1.0], [2 * y * 2.0]], F32)
assert np.allclose(net_ref.w.asnumpy(), w0 - 0.1 * grad), (net_ref.w.asnumpy(), w0 - 0.1 * grad)
assert not bool(overflow_ref.asnumpy()) and float(scale_ref.asnumpy()) == 1.0

# A fixed update cell skips the overflowing step and keeps its scale.
net, step = make_step(nn.FixedLossScaleUpdateCell(1024.0))
w0 = net.w.asnumpy().copy()
_, overflow, scale = step(big, target)
assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 1024.0 and np.array_equal(net.w.asnumpy(), w0)
_, overflow, _ = step(small, target)
assert not bool(overflow.asnumpy()) and not np.array_equal(net.w.asnumpy(), w0)

# A Tensor scale: skipped on overflow too, changed with set_sense_scale.
net, step = make_step(Tensor(np.array([1024.0], F32)))
w0 = net.w.asnumpy().copy()
_, overflow, _ = step(big, target)
assert bool(overflow.asnumpy()) and np.array_equal(net.w.asnumpy(), w0)
step.set_sense_scale(Tensor(np.array([1.0], F32)))
_, overflow, scale = step(big, target)
assert float(scale.asnumpy()[0]) == 1.0
raises(ValueError, make_step, Tensor(np.ones(2, F32)), match="the shape of 'scale_sense' must be (1,) or ()")
raises(TypeError, make_step, 1024.0, match="the 'scale_sense' must be Cell or Tensor")

# --- functional loss scalers ----------------------------------------------------------------------
static = amp.StaticLossScaler(scale_value=2 ** 10)
assert float(static.scale(Tensor([1.0], ms.float32)).asnumpy()[0]) == 1024.0
grads = (Tensor(np.array([1.5, 1.0]), ms.float16), Tensor(np.array([1.2]), ms.float16))
unscaled = static.unscale(grads)
assert unscaled[0].dtype == ms.float16
assert np.array_equal(unscaled[0].asnumpy(), np.array([1.4648e-03, 9.7656e-04], np.float16))
assert static.adjust(Tensor(True)) is False
raises(ValueError, amp.StaticLossScaler, 0.5, match="The argument 'scale_value' must be > 1, but got 0.5")
raises(ValueError, amp.DynamicLossScaler, 0, 2, 1, match="The argument 'scale_value' must be > 1")

scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
bad = (Tensor(np.array([np.log(-1), 1.0]), ms.float16), Tensor(np.array([0.2]), ms.float16))
finite = amp.all_finite(scaler.unscale(bad))
assert finite.dtype == ms.bool_ and not bool(finite.asnumpy())
assert scaler.adjust(finite) is True and float(scaler.scale_value.asnumpy()) == 512.0
assert scaler.adjust(amp.all_finite(grads)) and float(scaler.scale_value.asnumpy()) == 1024.0  # window 1
assert bool(amp.all_finite([Tensor(np.ones(3, F32))]).asnumpy())
assert amp.init_status().shape == (8,)

# --- Model ------------------------------------------------------------------------------------------
rng = np.random.RandomState(0)
features = rng.randn(32, 4).astype(F32)
labels = (features[:, 0] > 0).astype(np.int32)


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc(x)


def model(**kwargs):
    net = Classifier()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, opt, metrics={"acc"}, **kwargs)


data = ds.NumpySlicesDataset({"x": features, "y": labels}, shuffle=False).batch(8)
m2 = model(amp_level="O2")
assert type(m2.train_network).__name__ == "TrainOneStepWithLossScaleCell"
m2.train(2, data, callbacks=[LossMonitor(4)])
assert m2.eval(data)["acc"] > 0.5
m3 = model(amp_level="O3")
assert type(m3.train_network).__name__ == "TrainOneStepCell"
m3.train(1, data)
mf = model(loss_scale_manager=ms.FixedLossScaleManager(1024, drop_overflow_update=True))
assert type(mf.train_network).__name__ == "TrainOneStepWithLossScaleCell"
mf.train(1, data)
md = model(amp_level="O2", loss_scale_manager=ms.DynamicLossScaleManager(2 ** 12, 2, 50))
md.train(1, data)
assert float(md.train_network.scale_sense.asnumpy()) == 2 ** 12
raises(ValueError, Model, Classifier(), nn.MSELoss(), None, amp_level="O2", match="Auto mixed precision will not work")
raises(ValueError, Model, Classifier(), nn.MSELoss(), amp_level="O9")
print("ok")
