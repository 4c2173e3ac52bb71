"""P.LRN: x / (bias + alpha * sum of x^2 over the channels c - r .. c + r)^beta on (N, C, H, W),
MindSpore's attribute checks, and a gradient that agrees with finite differences."""
import numpy as np

from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import check_grad, close, raises

rng = np.random.default_rng(7)
x = rng.standard_normal((2, 5, 3, 2)).astype(np.float32)


def reference(a, r, bias, alpha, beta):
    sq = np.pad(a * a, ((0, 0), (r, r), (0, 0), (0, 0)))
    acc = sum(sq[:, i:i + a.shape[1]] for i in range(2 * r + 1))
    return a / (bias + alpha * acc) ** beta


for r, bias, alpha, beta in ((2, 1.0, 0.5, 0.75), (0, 2.0, 1.0, 0.5), (5, 1.0, 1.0, 0.5)):
    out = P.LRN(r, bias, alpha, beta)(Tensor(x))
    close(out, reference(x.astype(np.float64), r, bias, alpha, beta), rtol=1e-5, atol=1e-6)
assert P.LRN().depth_radius == 5 and P.LRN().norm_region == "ACROSS_CHANNELS"
check_grad(lambda t: P.LRN(1, 1.0, 0.3, 0.75)(t).sum(), rng.standard_normal((1, 3, 2, 2)))
raises(TypeError, P.LRN, depth_radius=1.5, match="depth_radius")
raises(TypeError, P.LRN, bias=1, match="'bias' must be a float")
raises(ValueError, P.LRN(), Tensor(x[0]), match="dimension of 'x' must be 4")
assert ops.LRN is P.LRN
