"""nn Conv3dTranspose (against a direct scatter-add NumPy transposed convolution), Unfold (patch
extraction in ExtractImagePatches' order) and the array Cells Norm, Tril, Triu, MatrixDiag,
MatrixDiagPart, MatrixSetDiag, Roll, ReduceLogSumExp, Moments, ImageGradients, CentralCrop and
ResizeBilinear."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import check_grad, close, raises

rng = np.random.default_rng(13)


def transposed(x, w, stride, crops, outs):
    """Each input voxel adds its weighted kernel at stride spacing; then the crops (zeros past the end)."""
    k = w.shape[2:]
    full = np.zeros((x.shape[0], w.shape[1]) + tuple((x.shape[2 + i] - 1) * stride[i] + k[i] for i in range(3)))
    for a, b, c in np.ndindex(*x.shape[2:]):
        for i, j, l in np.ndindex(*k):
            full[:, :, a * stride[0] + i, b * stride[1] + j, c * stride[2] + l] += x[:, :, a, b, c] @ w[:, :, i, j, l]
    out = full[(slice(None), slice(None)) + tuple(slice(crops[i][0], crops[i][0] + outs[i]) for i in range(3))]
    return np.pad(out, [(0, 0), (0, 0)] + [(0, outs[i] - out.shape[2 + i]) for i in range(3)])


x = rng.standard_normal((2, 3, 2, 3, 2))
cases = (("valid", 0, 2, 0, (4, 7, 5), ((0, 0),) * 3),
         ("same", 0, 2, 0, (4, 6, 4), ((0, 0), (0, 1), (0, 1))),
         ("pad", (1, 0, 0, 1, 1, 1), (1, 2, 2), 1, (3, 7, 4), ((1, 0), (0, 1), (1, 1))))
for mode, padding, stride, out_pad, shape, crops in cases:
    net = nn.Conv3dTranspose(3, 4, (2, 3, 3), stride=stride, pad_mode=mode, padding=padding,
                             output_padding=out_pad, has_bias=True, weight_init="normal", bias_init="normal")
    y = net(Tensor(x, ms.float32)).asnumpy()
    assert y.shape == (2, 4) + shape, (mode, y.shape)
    want = transposed(x, net.weight.asnumpy().astype(np.float64), net.stride, crops, shape)
    close(y, want + net.bias.asnumpy().reshape(1, -1, 1, 1, 1), rtol=1e-4, atol=1e-5)
assert nn.Conv3dTranspose(4, 6, 2, group=2).weight.shape == (4, 3, 2, 2, 2)
small = nn.Conv3dTranspose(1, 1, 2, stride=2, pad_mode="valid", weight_init="ones")
close(small(Tensor(np.ones((1, 1, 1, 1, 2)), ms.float32)), np.ones((1, 1, 2, 2, 4)))
check_grad(lambda t: (nn.Conv3dTranspose(1, 1, 2, 2, "valid", weight_init="ones")(t) ** 2).sum(),
           rng.standard_normal((1, 1, 1, 2, 1)))
raises(ValueError, nn.Conv3dTranspose, 3, 4, 2, padding=1, match="'padding' must be zero when 'pad_mode'")
raises(ValueError, nn.Conv3dTranspose(3, 4, 2), Tensor(x[0]), match="dimension of input must be 5")

# Unfold: out_depth = kh * kw * C, patch position major.
img = rng.standard_normal((2, 3, 5, 6))
u = nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1])(Tensor(img)).asnumpy()
assert u.shape == (2, 18, 2, 2), u.shape
for i, j, r, c in np.ndindex(2, 3, 2, 2):
    close(u[:, (i * 3 + j) * 3:(i * 3 + j + 1) * 3, r, c], img[:, :, r * 2 + i, c + 2 * j])
same = nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "same")(Tensor(img)).asnumpy()
padded = np.pad(img, ((0, 0), (0, 0), (0, 1), (0, 0)))
assert same.shape == (2, 12, 3, 3)
close(same[:, 9:12, 2, 1], padded[:, :, 5, 3])
raises(ValueError, nn.Unfold, [2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], match="[1, ksize_row, ksize_col, 1]")
raises(TypeError, nn.Unfold, 2, [1, 1, 1, 1], [1, 1, 1, 1], match="'ksizes' must be tuple or list")

m = np.array([[4.0, 4, 9, 1], [2, 1, 3, 6]])
close(nn.Norm(axis=0)(Tensor(m)), np.linalg.norm(m, axis=0))
close(nn.Norm(axis=1, keep_dims=True)(Tensor(m)), np.linalg.norm(m, axis=1, keepdims=True))
close(nn.Norm()(Tensor(m)), np.linalg.norm(m))
sq = rng.standard_normal((2, 4, 4))
close(nn.Tril()(Tensor(sq), 1), np.tril(sq, 1))
close(nn.Triu()(Tensor(sq), -1), np.triu(sq, -1))
d = rng.standard_normal((2, 3))
close(nn.MatrixDiag()(Tensor(d)), np.stack([np.diag(r) for r in d]))
rect = rng.standard_normal((2, 3, 5))
close(nn.MatrixDiagPart()(Tensor(rect)), np.stack([np.diag(r) for r in rect]))
close(nn.MatrixDiagPart()(Tensor(rect.transpose(0, 2, 1))), np.stack([np.diag(r) for r in rect]))
want = rect.copy()
want[:, np.arange(3), np.arange(3)] = d
close(nn.MatrixSetDiag()(Tensor(rect), Tensor(d)), want)
raises(ValueError, nn.MatrixSetDiag(), Tensor(rect), Tensor(rect[:, 0]), match="shape of 'diagonal'")
close(nn.Roll((1, -2), (0, 1))(Tensor(m)), np.roll(m, (1, -2), (0, 1)))
raises(ValueError, nn.Roll, (1, 2), 0, match="'shift' and the shape of 'axis'")
close(nn.ReduceLogSumExp(1, True)(Tensor(m)), np.log(np.exp(m).sum(1, keepdims=True)))
mean, var = nn.Moments(axis=1)(Tensor(m))
close(mean, m.mean(1))
close(var, m.var(1))
mean, var = nn.Moments(keep_dims=True)(Tensor(m))
close(var, m.var().reshape(1, 1))
dy, dx = nn.ImageGradients()(Tensor(img))
close(dy, np.concatenate([np.diff(img, axis=2), np.zeros((2, 3, 1, 6))], 2))
close(dx, np.concatenate([np.diff(img, axis=3), np.zeros((2, 3, 5, 1))], 3))
close(nn.CentralCrop(0.5)(Tensor(img)), img[:, :, 1:4, 1:5])
close(nn.CentralCrop(1.0)(Tensor(img[0])), img[0])
raises(ValueError, nn.CentralCrop, 1.5, match="'central_fraction' must be in range (0, 1]")
check_grad(lambda t: (nn.MatrixSetDiag()(t, Tensor(d[:1])) ** 2).sum(), rect[:1])

# ResizeBilinear: 2 x 2 -> 3 x 3 with the asymmetric (src = dst * in / out), half-pixel and corner mappings.
square = Tensor(np.arange(4.0).reshape(1, 1, 2, 2))
close(nn.ResizeBilinear()(square, (3, 3)), [[[[0, 2 / 3, 1], [4 / 3, 2, 7 / 3], [2, 8 / 3, 3]]]])
close(nn.ResizeBilinear()(square, align_corners=True, size=(3, 3)), [[[[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]]])
close(nn.ResizeBilinear(half_pixel_centers=True)(square, scale_factor=2)[0, 0, 0], [0, 0.25, 0.75, 1])
raises(ValueError, nn.ResizeBilinear(), square, match="'size' and 'scale' both none")
raises(TypeError, nn.ResizeBilinear(True), square, (3, 3), None, True, match="can not both be True")
