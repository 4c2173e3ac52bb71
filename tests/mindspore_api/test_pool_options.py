"""Max and average pooling with MindSpore 2.2's whole signatures (pad_mode='pad' with padding,
dilation, ceil_mode, return_indices, count_include_pad, divisor_override), functional and as
nn.MaxPool1d/2d and nn.AvgPool1d/2d, against a direct NumPy loop; gradients against finite
differences (average) and the argmax indices (maximum)."""
import math

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import close, fd_grad, raises


def out_size(size, k, s, p, d, ceil):
    span = (k - 1) * d + 1
    o = (math.ceil if ceil else math.floor)((size + 2 * p - span) / s) + 1
    if ceil and (o - 1) * s >= size + p:
        o -= 1
    return o


def reference(x, k, s, p, d=1, ceil=False, how="max", count_pad=True, divisor=None):
    """(N, C, H, W) pooling by loops: values, and for max the flat index of the first maximum."""
    n, c, h, w = x.shape
    oh, ow = out_size(h, k, s, p, d, ceil), out_size(w, k, s, p, d, ceil)
    out = np.zeros((n, c, oh, ow))
    idx = np.zeros((n, c, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            rows = [i * s - p + a * d for a in range(k)]
            cols = [j * s - p + b * d for b in range(k)]
            real = [(r, q) for r in rows for q in cols if 0 <= r < h and 0 <= q < w]
            if how == "max":
                vals = np.stack([x[:, :, r, q] for r, q in real], -1)
                first = vals.argmax(-1)
                out[:, :, i, j] = vals.max(-1)
                idx[:, :, i, j] = np.array([r * w + q for r, q in real])[first]
            else:
                total = sum(x[:, :, r, q] for r, q in real)
                # the window clipped to the padded input (ceil_mode's overhang never counts)
                hi = min(i * s - p + k, h + p) - (i * s - p)
                wj = min(j * s - p + k, w + p) - (j * s - p)
                out[:, :, i, j] = total / (divisor or (hi * wj if count_pad else len(real)))
    return out, idx


rs = np.random.RandomState(0)
x = rs.randn(2, 2, 7, 9)
X = Tensor(x.astype(np.float32))
for k, s, p, d, ceil in [(3, 2, 1, 1, False), (3, 2, 1, 1, True), (2, 2, 0, 1, True), (3, 1, 1, 2, False)]:
    want, want_idx = reference(x, k, s, p, d, ceil)
    got, got_idx = ops.max_pool2d(X, k, s, p, d, return_indices=True, ceil_mode=ceil)
    close(got, want, rtol=1e-6)
    assert (got_idx.asnumpy() == want_idx).all() and got_idx.dtype == ms.int64
    layer = nn.MaxPool2d(k, s, pad_mode="pad", padding=p, dilation=d, ceil_mode=ceil)
    close(layer(X), want, rtol=1e-6)
for k, s, p, ceil, count_pad, divisor in [(3, 2, 1, False, True, None), (3, 2, 1, True, True, None),
                                          (3, 2, 1, True, False, None), (3, 2, 1, False, False, 5)]:
    want, _ = reference(x, k, s, p, 1, ceil, "avg", count_pad, divisor)
    close(ops.avg_pool2d(X, k, s, p, ceil, count_pad, divisor), want, rtol=1e-5)
    layer = nn.AvgPool2d(k, s, pad_mode="pad", padding=p, ceil_mode=ceil, count_include_pad=count_pad,
                         divisor_override=divisor)
    close(layer(X), want, rtol=1e-5)

# 1-D layers: a (N, C, L) input is an (N, C, 1, L) plane
x1 = rs.randn(2, 3, 10)
# L = 10, kernel 3, stride 2, padding 1: 5 windows, and ceil_mode adds a sixth at the end
close(nn.MaxPool1d(3, 2, pad_mode="pad", padding=1, ceil_mode=True)(Tensor(x1.astype(np.float32))),
      np.stack([x1[:, :, max(0, 2 * j - 1):2 * j + 2].max(-1) for j in range(6)], -1), rtol=1e-6)
close(nn.AvgPool1d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)(Tensor(x1.astype(np.float32))),
      np.stack([x1[:, :, max(0, 2 * j - 1):2 * j + 2].mean(-1) for j in range(5)], -1), rtol=1e-5)
close(nn.MaxPool1d(2, 2)(Tensor(x1.astype(np.float32))), x1.reshape(2, 3, 5, 2).max(-1), rtol=1e-6)

# gradients: the average against finite differences (float64), the maximum lands on the indices
small = rs.randn(1, 1, 5, 5)
avg = nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True, count_include_pad=False)
close(ms.grad(lambda t: (avg(t) ** 2).sum())(Tensor(small)), fd_grad(lambda t: (avg(t) ** 2).sum(), small),
      rtol=1e-6, atol=1e-8)
mx = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True, return_indices=True)
_, where = mx(Tensor(small))
expected = np.zeros(25)
np.add.at(expected, where.asnumpy().ravel(), 1.0)
close(ms.grad(lambda t: mx(t)[0].sum())(Tensor(small)), expected.reshape(1, 1, 5, 5))

raises(ValueError, nn.MaxPool2d, 3, 2, padding=1, match="'padding' must be 0 when 'pad_mode' is 'valid'")
raises(ValueError, ops.max_pool2d, X, 3, 2, 2, match="at most half the kernel size")
print("ok")
