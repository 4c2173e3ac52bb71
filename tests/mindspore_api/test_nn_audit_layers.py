"""An audit of layers against NumPy: Pad (three modes), Upsample, PixelShuffle / PixelUnshuffle,
CellDict, BatchNorm's moving statistics (MindSpore's momentum: moving = momentum * moving + (1 -
momentum) * batch) and use_batch_statistics, Dropout's p / keep_prob, activation defaults
(LeakyReLU alpha 0.2, GELU approximate=True), and float64 gradients against finite differences."""
from collections import OrderedDict

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, fd_grad, raises

rng = np.random.RandomState(17)
X = rng.randn(2, 3, 4, 4)


def grad_ok(cell, x):
    f = lambda t: (cell(t) ** 2).sum()
    close(ms.grad(f)(Tensor(x)), fd_grad(f, x), 1e-5, 1e-6)


# Pad.
x2 = rng.randn(3, 4)
for mode, np_mode in (("CONSTANT", "constant"), ("REFLECT", "reflect"), ("SYMMETRIC", "symmetric")):
    pad = nn.Pad(((1, 2), (2, 1)), mode=mode)
    close(pad(Tensor(x2, ms.float32)), np.pad(x2, ((1, 2), (2, 1)), np_mode).astype(np.float32))
    grad_ok(pad, x2)
raises(ValueError, nn.Pad(((0, 0), (4, 0)), mode="REFLECT"), Tensor(x2), match="at most 3")
raises(ValueError, nn.Pad, ((1, 1),), mode="EDGE", match="'mode' must be in")

# Upsample: nearest by a factor, bilinear with align_corners.
up = nn.Upsample(scale_factor=2.0, mode="nearest")
close(up(Tensor(X, ms.float32)), X.repeat(2, 2).repeat(2, 3).astype(np.float32))
bil = nn.Upsample(size=(7, 7), mode="bilinear", align_corners=True)
pos = np.arange(7) * 3 / 6
i0 = np.minimum(np.floor(pos).astype(int), 2)
fr = pos - i0
rows = X[:, :, i0] * (1 - fr)[:, None] + X[:, :, i0 + 1] * fr[:, None]
want = rows[..., i0] * (1 - fr) + rows[..., i0 + 1] * fr
close(bil(Tensor(X, ms.float32)), want.astype(np.float32), 1e-5, 1e-5)
grad_ok(bil, X)

# PixelShuffle and back.
ps = rng.randn(1, 8, 2, 3)
want = ps.reshape(1, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(1, 2, 4, 6)
close(nn.PixelShuffle(2)(Tensor(ps, ms.float32)), want.astype(np.float32))
close(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(Tensor(ps, ms.float32))), ps.astype(np.float32))

# CellDict: insertion order, parameters of its Cells belong to the owner, dict methods, errors.
cd = nn.CellDict(OrderedDict([("fc", nn.Dense(2, 3)), ("act", nn.ReLU())]))
cd["out"] = nn.Dense(3, 1)
assert list(cd.keys()) == ["fc", "act", "out"] and len(cd) == 3 and "act" in cd
assert len(cd.trainable_params()) == 4
h = Tensor(rng.randn(4, 2), ms.float32)
for key in cd:
    h = cd[key](h)
assert h.shape == (4, 1)
assert isinstance(cd.pop("act"), nn.ReLU) and list(cd.keys()) == ["fc", "out"]
cd.update({"act2": nn.Tanh()})
assert [k for k, _ in cd.items()] == ["fc", "out", "act2"]
cd.clear()
assert len(cd) == 0 and not cd.trainable_params()
raises(TypeError, cd.__setitem__, 1, nn.ReLU(), match="key should be str")
raises(TypeError, cd.__setitem__, "x", 3, match="should be Cell")
seq = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 3)), ("act", nn.ReLU())]))
assert seq.fc is seq[0]

# BatchNorm2d: training uses batch statistics and updates the moving ones with MindSpore's momentum.
bn = nn.BatchNorm2d(3, momentum=0.8)
bn.set_train(True)
out = bn(Tensor(X, ms.float32))
mean, var = X.mean((0, 2, 3)), X.var((0, 2, 3))
close(out, ((X - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)).astype(np.float32), 1e-4, 1e-4)
n = X.size / 3
close(bn.moving_mean, (0.2 * mean).astype(np.float32), 1e-5, 1e-6)
close(bn.moving_variance, (0.8 + 0.2 * var * n / (n - 1)).astype(np.float32), 1e-5, 1e-5)
bn.set_train(False)
mm, mv = bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()
close(bn(Tensor(X, ms.float32)), ((X - mm[:, None, None]) / np.sqrt(mv[:, None, None] + 1e-5)).astype(np.float32),
      1e-4, 1e-4)
fixed = nn.BatchNorm2d(3, use_batch_statistics=True)
fixed.set_train(False)
close(fixed(Tensor(X, ms.float32)), ((X - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)).astype(np.float32),
      1e-4, 1e-4)

# Dropout: p and the deprecated keep_prob mean the same; eval mode is the identity.
for drop in (nn.Dropout(p=0.25), nn.Dropout(keep_prob=0.75)):
    drop.set_train(True)
    y = drop(Tensor(np.ones((200, 50), np.float32))).asnumpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.03
    drop.set_train(False)
    close(drop(Tensor(x2, ms.float32)), x2.astype(np.float32))
raises(ValueError, nn.Dropout, p=1.0, match="'p'")

# Activation defaults and values.
a = rng.randn(3, 5)
close(nn.LeakyReLU()(Tensor(a, ms.float32)), np.where(a > 0, a, 0.2 * a).astype(np.float32))
tanh_gelu = 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))
close(nn.GELU()(Tensor(a, ms.float32)), tanh_gelu.astype(np.float32), 1e-5, 1e-5)
from math import erf
close(nn.GELU(approximate=False)(Tensor(a, ms.float32)),
      (0.5 * a * (1 + np.vectorize(erf)(a / np.sqrt(2)))).astype(np.float32), 1e-5, 1e-5)
close(nn.HSwish()(Tensor(a, ms.float32)), (a * np.clip(a + 3, 0, 6) / 6).astype(np.float32), 1e-5, 1e-6)
close(nn.ELU()(Tensor(a, ms.float32)), np.where(a > 0, a, np.exp(a) - 1).astype(np.float32), 1e-5)
raises(ValueError, nn.ELU, alpha=0.5, match="only supports 1.0")  # as MindSpore's Elu primitive
close(nn.Threshold(0.1, 20.0)(Tensor(a, ms.float32)), np.where(a > 0.1, a, 20.0).astype(np.float32))
close(nn.GLU()(Tensor(a[:, :4], ms.float32)), (a[:, :2] / (1 + np.exp(-a[:, 2:4]))).astype(np.float32), 1e-5, 1e-6)
for cell in (nn.Mish(), nn.SiLU(), nn.CELU(), nn.SeLU(), nn.Softsign(), nn.Tanhshrink(), nn.HSigmoid(),
             nn.Hardtanh(), nn.FastGelu(), nn.LogSoftmax(), nn.Softplus()):
    grad_ok(cell, a + 0.01)
