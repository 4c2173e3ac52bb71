"""nn ReflectionPad/ReplicationPad 1d-3d, MaxPool3d/AvgPool3d, AdaptiveAvg/MaxPool3d, LPPool1d/2d and
MaxUnpool1d/2d/3d: values against NumPy, gradients against finite differences, MindSpore's errors."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import check_grad, close, raises

rng = np.random.default_rng(3)

# Padding layers: NumPy's 'reflect' and 'edge' modes; MindSpore's order is (left, right, top, bottom, front, back).
x1 = rng.standard_normal((2, 3, 5))
close(nn.ReflectionPad1d((2, 1))(Tensor(x1)), np.pad(x1, ((0, 0), (0, 0), (2, 1)), "reflect"))
close(nn.ReplicationPad1d(3)(Tensor(x1[0])), np.pad(x1[0], ((0, 0), (3, 3)), "edge"))
x2 = rng.standard_normal((1, 2, 4, 5))
close(nn.ReflectionPad2d((1, 2, 3, 0))(Tensor(x2)), np.pad(x2, ((0, 0), (0, 0), (3, 0), (1, 2)), "reflect"))
close(nn.ReplicationPad2d((0, 2, 1, 1))(Tensor(x2[0])), np.pad(x2[0], ((0, 0), (1, 1), (0, 2)), "edge"))
x3 = rng.standard_normal((1, 3, 3, 4))
close(nn.ReflectionPad3d(1)(Tensor(x3)), np.pad(x3, ((0, 0), (1, 1), (1, 1), (1, 1)), "reflect"))
close(nn.ReplicationPad3d((1, 0, 0, 2, 2, 1))(Tensor(x3)), np.pad(x3, ((0, 0), (2, 1), (0, 2), (1, 0)), "edge"))
w = rng.standard_normal((2, 3, 8))
check_grad(lambda t: (nn.ReflectionPad1d((2, 1))(t) * Tensor(w)).sum(), x1)
assert repr(nn.ReflectionPad2d(1)) == "ReflectionPad2d<>", repr(nn.ReflectionPad2d(1))
# MindSpore's examples; a shorter tuple pads fewer trailing axes; replication crops for negative padding.
nine = np.arange(9.0).reshape(1, 3, 3)
close(nn.ReflectionPad2d((1, 1, 2, 0))(Tensor(nine)), [[[7, 6, 7, 8, 7], [4, 3, 4, 5, 4], [1, 0, 1, 2, 1],
                                                         [4, 3, 4, 5, 4], [7, 6, 7, 8, 7]]])
close(nn.ReplicationPad2d((1, 1, 2, 0))(Tensor(nine[None])), [[[[0, 0, 1, 2, 2], [0, 0, 1, 2, 2], [0, 0, 1, 2, 2],
                                                                [3, 3, 4, 5, 5], [6, 6, 7, 8, 8]]]])
close(nn.ReflectionPad2d((1, 2))(Tensor(x2)), np.pad(x2, ((0, 0), (0, 0), (0, 0), (1, 2)), "reflect"))
close(nn.ReplicationPad1d((-1, 2))(Tensor(x1)), np.pad(x1[..., 1:], ((0, 0), (0, 0), (0, 2)), "edge"))
raises(ValueError, nn.ReflectionPad2d, (1, 2, 3), match="must be divisible by 2, but got padding of length 3")
raises(TypeError, nn.ReplicationPad1d, 1.5, match="must be an integer or tuple, but got float")
raises(TypeError, nn.ReflectionPad1d, [1, 2], match="must be an integer or tuple, but got list")
raises(ValueError, nn.ReflectionPad1d, (1, -1), match="must be >= 0")
raises(ValueError, nn.ReflectionPad1d(5), Tensor(x1), match="must be less than its size 5")
raises(ValueError, nn.ReflectionPad3d(1), Tensor(x1[0, 0]), match="the dimension of the tensor should be at least 3")
raises(ValueError, nn.ReplicationPad3d(1), Tensor(x1), match="dimension of input must be 4 or 5")


def windows(a, k, s):
    """(N, C, *outs, k*k*k) windows of a 3-D volume."""
    n, c, d, h, w_ = a.shape
    outs = [(v - k) // s + 1 for v in (d, h, w_)]
    out = np.zeros((n, c) + tuple(outs) + (k ** 3,))
    for i, j, l in np.ndindex(*outs):
        out[:, :, i, j, l] = a[:, :, i * s:i * s + k, j * s:j * s + k, l * s:l * s + k].reshape(n, c, -1)
    return out


v = rng.standard_normal((2, 2, 4, 5, 4))
close(nn.MaxPool3d(2, 2)(Tensor(v)), windows(v, 2, 2).max(-1))
close(nn.AvgPool3d(3, 1)(Tensor(v)), windows(v, 3, 1).mean(-1))
padded = np.pad(v, ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)))
close(nn.AvgPool3d(3, 2, pad_mode="pad", padding=1)(Tensor(v)), windows(padded, 3, 2).mean(-1))
close(nn.MaxPool3d(2, 2)(Tensor(v[0])), windows(v, 2, 2).max(-1)[0])
out, idx = nn.MaxPool3d(2, 2, return_indices=True)(Tensor(v))
assert idx.dtype == ms.int64 and out.shape == (2, 2, 2, 2, 2)
close(v.reshape(2, 2, -1)[np.arange(2)[:, None, None], np.arange(2)[None, :, None], idx.asnumpy().reshape(2, 2, -1)],
      out.asnumpy().reshape(2, 2, -1))
check_grad(lambda t: (nn.AvgPool3d(2, 1)(t) ** 2).sum(), v[:1, :1])
assert repr(nn.MaxPool3d(2, 1)) == "MaxPool3d<kernel_size=2, stride=1, pad_mode=VALID>"
raises(ValueError, nn.MaxPool3d(2), Tensor(x1), match="dimension of input must be 4 or 5")
raises(ValueError, nn.AvgPool3d, 2, 1, "valid", 1, match="'padding' must be 0")

# Adaptive 3-D pools: even bins are plain block means/maxima; None keeps an axis.
u = rng.standard_normal((1, 2, 4, 6, 2))
blocks = u.reshape(1, 2, 2, 2, 3, 2, 1, 2)
close(nn.AdaptiveAvgPool3d((2, 3, 1))(Tensor(u)), blocks.mean((3, 5, 7)))
close(nn.AdaptiveMaxPool3d((2, 3, None))(Tensor(u)), u.reshape(1, 2, 2, 2, 3, 2, 2).max((3, 5)))
o, i = nn.AdaptiveMaxPool3d((2, 3, 1), return_indices=True)(Tensor(u))
close(np.take_along_axis(u.reshape(1, 2, -1), i.asnumpy().reshape(1, 2, -1), 2), o.asnumpy().reshape(1, 2, -1))
check_grad(lambda t: (nn.AdaptiveAvgPool3d((1, 2, 1))(t) ** 2).sum(), u[:, :1])
q2 = rng.standard_normal((2, 3, 5, 7))
o, i = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(Tensor(q2))   # uneven bins
assert i.dtype == ms.int64 and i.shape == (2, 3, 2, 3)
close(np.take_along_axis(q2.reshape(2, 3, -1), i.asnumpy().reshape(2, 3, -1), 2), o.asnumpy().reshape(2, 3, -1))
raises(ValueError, nn.AdaptiveAvgPool3d(2), Tensor(x1), match="dimension of input must be 4 or 5")

# LPPool: (sum of x^p over a window)^(1/p).
a = np.abs(rng.standard_normal((2, 3, 7))) + 0.1
close(nn.LPPool1d(2, 3, 2)(Tensor(a)), np.sqrt(np.stack([(a[..., i:i + 3] ** 2).sum(-1) for i in (0, 2, 4)], -1)))
b = np.abs(rng.standard_normal((1, 2, 4, 4))) + 0.1
want = (b.reshape(1, 2, 2, 2, 2, 2) ** 3).sum((3, 5)) ** (1 / 3)
close(nn.LPPool2d(3, 2)(Tensor(b)), want)
check_grad(lambda t: nn.LPPool2d(2, 2)(t).sum(), b[:, :1])
raises(ValueError, nn.LPPool2d(2, 2), Tensor(a[0, 0]), match="dimension of input must be 3 or 4")

# MaxUnpool puts each value back where MaxPool found it.
p = rng.standard_normal((2, 3, 6))
o, i = nn.MaxPool1d(2, 2, return_indices=True)(Tensor(p))
un = nn.MaxUnpool1d(2)(o, i).asnumpy()
keep = (p.reshape(2, 3, 3, 2) == p.reshape(2, 3, 3, 2).max(-1, keepdims=True)).reshape(2, 3, 6)
close(un, np.where(keep, p, 0.0))
q = rng.standard_normal((1, 2, 4, 4))
o, i = nn.MaxPool2d(2, 2, return_indices=True)(Tensor(q))
close(nn.MaxUnpool2d(2, 2)(o, i, (5, 5)).shape, (1, 2, 5, 5))
close(nn.MaxUnpool2d(2)(o, i).asnumpy().reshape(1, 2, -1).sum(-1), o.asnumpy().reshape(1, 2, -1).sum(-1))
o3, i3 = nn.MaxPool3d(2, 2, return_indices=True)(Tensor(v[:, :, :4, :4, :4]))
close(nn.MaxUnpool3d(2)(o3, i3).asnumpy().max((2, 3, 4)), v[:, :, :4, :4, :4].max((2, 3, 4)))
idx = Tensor(np.array([[[1, 2]]]), ms.int64)
check_grad(lambda t: (nn.MaxUnpool1d(2)(t, idx) * Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]]))).sum(),
           np.array([[[0.5, -1.0]]]))
raises(ValueError, nn.MaxUnpool1d(2), Tensor(np.ones((1, 1, 2))), Tensor(np.array([[[0, 9]]]), ms.int64),
       match="'indices' must lie in [0, 4)")
raises(ValueError, nn.MaxUnpool2d(2), o, i, (9, 9), match="'output_size'")
