"""Transposed convolution, resizing, adaptive pooling and training utilities composed in Python:
convT is the adjoint of conv (<conv(x), y> = <x, convT(y)>), resizing against NumPy formulas,
gradients against finite differences."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import operations as P

from _check import close, raises

rng = np.random.default_rng(8)

# ---- transposed convolution is the adjoint of convolution
x = rng.standard_normal((2, 4, 7, 6))
w = rng.standard_normal((6, 2, 3, 2))
for stride, pad, dil in [(1, 0, 1), (2, 1, 1), (2, 0, 2), (3, (1, 0, 2, 1), 1)]:
    pad_arg = pad if isinstance(pad, int) else pad
    y = ops.conv2d(Tensor(x), Tensor(w), None, stride, "pad", pad_arg, dil, 2)
    dy = rng.standard_normal(y.shape)
    back = P.Conv2DBackpropInput(6, (3, 2), pad_mode="pad", pad=pad_arg, stride=stride, dilation=dil, group=2)
    dx = back(Tensor(dy), Tensor(w), x.shape)
    assert dx.shape == x.shape
    lhs = float((y.asnumpy() * dy).sum())
    rhs = float((x * dx.asnumpy()).sum())
    assert abs(lhs - rhs) < 1e-9 * max(1.0, abs(lhs)), (stride, pad, dil, lhs, rhs)
same = P.Conv2DTranspose(6, (3, 2), pad_mode="same", stride=2, group=2)
ys = ops.conv2d(Tensor(x), Tensor(w), None, 2, "same", 0, 1, 2)
assert same(ys, Tensor(w), x.shape).shape == x.shape
assert issubclass(P.Conv2DTranspose, ops.Primitive) and P.Conv2DTranspose(2, 3).name == "Conv2DTranspose"
# PyTorch-style conv_transpose2d: output size (H-1)s - 2p + d(k-1) + 1 + output_padding
xi = rng.standard_normal((1, 3, 4, 5))
wt = rng.standard_normal((3, 2, 3, 3))
out = ops.conv_transpose2d(Tensor(xi), Tensor(wt), Tensor(np.array([0.5, -0.5])), 2, 1, 1)
assert out.shape == (1, 2, 8, 10)
# direct definition: every input pixel scatters its kernel-weighted copy
ref = np.zeros((1, 2, 2 * 3 + 3 + 1, 2 * 4 + 3 + 1))
for c in range(3):
    for i in range(4):
        for j in range(5):
            ref[0, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3] += xi[0, c, i, j] * wt[c]
close(out, ref[:, :, 1:9, 1:11] + np.array([0.5, -0.5]).reshape(1, 2, 1, 1), rtol=1e-10)


def fd(f, a, eps=1e-6):
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        p, m = a.copy(), a.copy()
        p[i] += eps
        m[i] -= eps
        g[i] = (float(f(p).asnumpy()) - float(f(m).asnumpy())) / (2 * eps)
    return g


xs, ws = rng.standard_normal((1, 2, 3, 3)), rng.standard_normal((2, 1, 2, 2))
proj = Tensor(rng.standard_normal((1, 1, 6, 6)))
gx, gw = ms.grad(lambda a, k: (ops.conv_transpose2d(a, k, None, 2) * proj).sum(), grad_position=(0, 1))(
    Tensor(xs), Tensor(ws))
close(gx, fd(lambda a: (ops.conv_transpose2d(Tensor(a), Tensor(ws), None, 2) * proj).sum(), xs), rtol=1e-6)
close(gw, fd(lambda k: (ops.conv_transpose2d(Tensor(xs), Tensor(k), None, 2) * proj).sum(), ws), rtol=1e-6)

# ---- resizing
img = np.arange(6.0).reshape(1, 1, 2, 3)
close(P.ResizeNearestNeighbor((4, 6))(Tensor(img)), img.repeat(2, 2).repeat(2, 3))
close(P.ResizeNearestNeighbor((3, 5), align_corners=True)(Tensor(img)),
      img[:, :, np.round(np.arange(3) * 0.5).astype(int)][:, :, :, np.round(np.arange(5) * 0.5).astype(int)])
close(P.ResizeBilinear((3, 5), align_corners=True)(Tensor(img)),
      [[[[0, 0.5, 1, 1.5, 2], [1.5, 2, 2.5, 3, 3.5], [3, 3.5, 4, 4.5, 5]]]])
close(P.ResizeBilinear((2, 6))(Tensor(img)), [[[[0, 0.5, 1, 1.5, 2, 2], [3, 3.5, 4, 4.5, 5, 5]]]])
close(P.ResizeBilinearV2()(Tensor(img), (2, 6)), [[[[0, 0.5, 1, 1.5, 2, 2], [3, 3.5, 4, 4.5, 5, 5]]]])
raises(ValueError, P.ResizeBilinear((2, 2), True, True), Tensor(img), match="cannot both be True")
# interpolate: half-pixel linear (align_corners False), nearest, area
close(ops.interpolate(Tensor(img), scale_factor=2.0, mode="bilinear"),
      [[[[0, 0.25, 0.75, 1.25, 1.75, 2], [0.75, 1, 1.5, 2, 2.5, 2.75],
         [2.25, 2.5, 3, 3.5, 4, 4.25], [3, 3.25, 3.75, 4.25, 4.75, 5]]]])
close(ops.interpolate(Tensor(img), size=(2, 5), mode="bilinear", align_corners=True),
      [[[[0, 0.5, 1, 1.5, 2], [3, 3.5, 4, 4.5, 5]]]])
close(ops.interpolate(Tensor(img), size=(4, 6), mode="nearest"), img.repeat(2, 2).repeat(2, 3))
close(ops.interpolate(Tensor(np.arange(4.0).reshape(1, 1, 4)), size=2, mode="area"), [[[0.5, 2.5]]])
close(ops.interpolate(Tensor(np.arange(3.0).reshape(1, 1, 3)), size=5, mode="linear", align_corners=True),
      [[[0, 0.5, 1, 1.5, 2]]])
raises(ValueError, ops.interpolate, Tensor(img), mode="nearest", match="exactly one of 'size' and 'scale_factor'")
raises(ValueError, ops.interpolate, Tensor(img), (4, 4), None, "nearest", True, match="'align_corners'")
g = ms.grad(lambda a: (ops.interpolate(a, size=(3, 4), mode="bilinear") * proj[:, :, :3, :4]).sum())(Tensor(img))
close(g, fd(lambda a: (ops.interpolate(Tensor(a), size=(3, 4), mode="bilinear") * proj[:, :, :3, :4]).sum(), img),
      rtol=1e-6)

# ---- adaptive pooling
xa = rng.standard_normal((2, 3, 5, 7))
out, idx = ops.adaptive_max_pool2d(Tensor(xa), (2, 3), True)
want = np.zeros((2, 3, 2, 3))
for i in range(2):
    for j in range(3):
        hs, he = (i * 5) // 2, -(-((i + 1) * 5) // 2)
        ws_, we = (j * 7) // 3, -(-((j + 1) * 7) // 3)
        want[:, :, i, j] = xa[:, :, hs:he, ws_:we].max((2, 3))
close(out, want)
close(np.take_along_axis(xa.reshape(2, 3, -1), idx.asnumpy().reshape(2, 3, -1), 2).reshape(2, 3, 2, 3), want)
close(P.AdaptiveAvgPool2D((1, 1))(Tensor(xa)), xa.mean((2, 3), keepdims=True))
close(P.AdaptiveMaxPool2D(1)(Tensor(xa))[0], xa.max((2, 3), keepdims=True))

# ---- utilities
ts = (Tensor(np.array([3.0, 0.0])), Tensor(np.array([[4.0]])))
c1, c2 = ops.clip_by_global_norm(ts, 1.0)
close(c1, [0.6, 0.0])
close(c2, [[0.8]])
c1, _ = ops.clip_by_global_norm(ts, 10.0)
close(c1, [3.0, 0.0])
close(ops.nan_to_num(Tensor(np.array([np.nan, np.inf, -np.inf, 1.0])), 0.5, 9.0, -9.0), [0.5, 9.0, -9.0, 1.0])
close(ops.sinc(Tensor(np.array([0.0, 0.5]))), [1.0, np.sin(np.pi / 2) / (np.pi / 2)])
logits, labels = rng.standard_normal((2, 3)), rng.random((2, 3))
close(P.SigmoidCrossEntropyWithLogits()(Tensor(logits), Tensor(labels)),
      np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits))))
close(P.InTopK(2)(Tensor(np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])), Tensor(np.array([2, 2], np.int32))),
      [True, False])
assert P.ScalarSummary()("loss", Tensor(1.0)) is None
raises(TypeError, P.TensorSummary(), "", Tensor(1.0), match="For 'TensorSummary'")
print("ok")
