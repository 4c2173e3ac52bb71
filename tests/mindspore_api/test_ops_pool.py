"""1-D / 3-D convolution and pooling composed in Python (Conv3D, MaxPool3D, AvgPool3D, conv1d,
conv3d, max_pool3d, avg_pool3d, ...): values against a direct NumPy loop and the C++ 2-D kernels,
gradients against finite differences in float64."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import operations as P

from _check import close, raises

rng = np.random.default_rng(4)


def conv3d_ref(x, w, stride, pads, dilation, groups=1):
    x = np.pad(x, [(0, 0), (0, 0)] + list(pads))
    n, c, *size = x.shape
    o, cg, *k = w.shape
    out = [(s - (kk - 1) * d - 1) // st + 1 for s, kk, st, d in zip(size, k, stride, dilation)]
    y = np.zeros((n, o) + tuple(out))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for idx in np.ndindex(*out):
            sl = tuple(slice(i * st, i * st + (kk - 1) * d + 1, d) for i, st, kk, d in zip(idx, stride, k, dilation))
            patch = x[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            y[(slice(None), oc) + idx] = (patch * w[oc]).sum(axis=(1, 2, 3, 4))
    return y


x = rng.standard_normal((2, 4, 4, 5, 3))
w = rng.standard_normal((6, 2, 2, 3, 2))
close(ops.conv3d(Tensor(x), Tensor(w), groups=2), conv3d_ref(x, w, (1, 1, 1), [(0, 0)] * 3, (1, 1, 1), 2), rtol=1e-10)
close(ops.conv3d(Tensor(x), Tensor(w), None, (2, 1, 1), "pad", (1, 0, 1, 1, 0, 1), (1, 2, 1), 2),
      conv3d_ref(x, w, (2, 1, 1), [(1, 0), (1, 1), (0, 1)], (1, 2, 1), 2), rtol=1e-10)
same = ops.conv3d(Tensor(x), Tensor(w), pad_mode="same", groups=2)
assert same.shape == (2, 6, 4, 5, 3)
b = rng.standard_normal(6)
close(P.Conv3D(6, (2, 3, 2), group=2)(Tensor(x), Tensor(w), Tensor(b)),
      conv3d_ref(x, w, (1, 1, 1), [(0, 0)] * 3, (1, 1, 1), 2) + b.reshape(1, 6, 1, 1, 1), rtol=1e-10)
assert P.Conv3D(6, 2).attrs["pad_mode"] == "valid"
raises(ValueError, P.Conv3D(4, 2), Tensor(x), Tensor(w), match="For 'Conv3D'")
raises(ValueError, ops.conv3d, Tensor(x), Tensor(rng.standard_normal((4, 3, 2, 2, 2))), match="For 'conv3d'")

# 2-D through the 3-D path (depth 1) equals the C++ conv2d
x2, w2 = rng.standard_normal((2, 4, 5, 6)), rng.standard_normal((6, 2, 3, 3))
a = ops.conv2d(Tensor(x2), Tensor(w2), stride=1, pad_mode="pad", padding=1, groups=2)
c = ops.conv3d(Tensor(x2[:, :, None]), Tensor(w2[:, :, None]), None, 1, "pad", (0, 0, 1, 1, 1, 1), 1, 2)
close(c.asnumpy()[:, :, 0], a.asnumpy(), rtol=1e-10)
# conv1d
x1, w1 = rng.standard_normal((2, 3, 7)), rng.standard_normal((4, 3, 3))
want = np.stack([np.stack([sum(np.convolve(x1[n, ci], w1[o, ci][::-1], "valid") for ci in range(3))
                           for o in range(4)]) for n in range(2)])
close(ops.conv1d(Tensor(x1), Tensor(w1)), want, rtol=1e-10)

# gradients of conv3d (input and weight) against finite differences
xs, ws = rng.standard_normal((1, 2, 3, 3, 2)), rng.standard_normal((2, 2, 2, 2, 1))
proj = Tensor(rng.standard_normal((1, 2, 2, 2, 2)))


def fd(f, a, eps=1e-6):
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        p, m = a.copy(), a.copy()
        p[i] += eps
        m[i] -= eps
        g[i] = (float(f(p).asnumpy()) - float(f(m).asnumpy())) / (2 * eps)
    return g


gx, gw = ms.grad(lambda a, k: (ops.conv3d(a, k) * proj).sum(), grad_position=(0, 1))(Tensor(xs), Tensor(ws))
close(gx, fd(lambda a: (ops.conv3d(Tensor(a), Tensor(ws)) * proj).sum(), xs), rtol=1e-6)
close(gw, fd(lambda k: (ops.conv3d(Tensor(xs), Tensor(k)) * proj).sum(), ws), rtol=1e-6)

# pooling
shape = (1, 3, 2, 3, 4)
xp = np.arange(np.prod(shape)).reshape(shape).astype(np.float64)
close(P.MaxPool3D(kernel_size=(2, 2, 3), strides=1, pad_mode="VALID")(Tensor(xp)),
      [[[[[18, 19], [22, 23]]], [[[42, 43], [46, 47]]], [[[66, 67], [70, 71]]]]])
close(P.MaxPool3D(kernel_size=2, strides=3)(Tensor(xp)), [[[[[17]]], [[[41]]], [[[65]]]]])
assert P.MaxPool3D(kernel_size=2, strides=1, pad_mode="SAME")(Tensor(xp)).shape == (1, 3, 2, 3, 4)
# the gradient goes to each window's maximum
g = ms.grad(lambda a: P.MaxPool3D(kernel_size=2, strides=3)(a).sum())(Tensor(xp)).asnumpy()
want = np.zeros(shape)
want[0, :, 1, 1, 1] = 1
close(g, want)
xr = rng.standard_normal((2, 2, 4, 4, 4))
ref = xr.reshape(2, 2, 2, 2, 2, 2, 2, 2).mean(axis=(3, 5, 7))
close(ops.avg_pool3d(Tensor(xr), 2, 2), ref)
close(P.AvgPool3D(kernel_size=2, strides=2)(Tensor(xr)), ref)
close(ops.max_pool3d(Tensor(xr), 2, 2), xr.reshape(2, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7)))
# count_include_pad=False divides the border windows by the real element count
e = ops.avg_pool3d(Tensor(np.ones((1, 1, 2, 2, 2))), 2, 1, 1, count_include_pad=False)
close(e, np.ones((1, 1, 3, 3, 3)))
e = ops.avg_pool3d(Tensor(np.ones((1, 1, 2, 2, 2))), 2, 1, 1)
assert abs(float(e.asnumpy()[0, 0, 0, 0, 0]) - 1 / 8) < 1e-12
close(ops.max_pool1d(Tensor(np.array([[[1.0, 3.0, 2.0, 5.0, 4.0]]])), 2, 1), [[[3.0, 3.0, 5.0, 5.0]]])
close(ops.avg_pool1d(Tensor(np.array([[[1.0, 3.0, 2.0, 5.0]]])), 2, 2), [[[2.0, 3.5]]])
print("ok")
