"""Reciprocal / Inv, Atan2 and the inverse trigonometric / hyperbolic functions keep a float16
input float16 (MindSpore's kernels compute in float16; the results equal NumPy's float16 ones),
keep float64, and give float32 for integers."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import close

rng = np.random.default_rng(4)
x16 = (rng.standard_normal((4, 5)) * 100).astype(np.float16)
for fn in (ops.reciprocal, P.Reciprocal(), P.Inv(), ops.inv):
    out = fn(Tensor(x16))
    assert out.dtype == ms.float16, fn
    assert (out.asnumpy() == np.reciprocal(x16)).all(), fn
x64 = rng.standard_normal(6)
out = ops.reciprocal(Tensor(x64))
assert out.dtype == ms.float64
close(out, 1 / x64, rtol=1e-12, atol=0)
out = ops.reciprocal(Tensor(np.array([1, 2, -4], np.int32)))
assert out.dtype == ms.float32
close(out, [1, 0.5, -0.25])
close(ms.grad(lambda t: ops.reciprocal(t).sum())(Tensor(np.array([2.0, -4.0], np.float16))), [-0.25, -0.0625])

a16 = (rng.standard_normal(8) * 3).astype(np.float16)
b16 = (rng.standard_normal(8) * 3).astype(np.float16)
b16[0] = 0
for fn in (ops.atan2, P.Atan2()):
    out = fn(Tensor(a16), Tensor(b16))
    assert out.dtype == ms.float16
    close(out, np.arctan2(a16, b16), rtol=1e-3, atol=1e-3)
assert ops.atan2(Tensor(a16.astype(np.float32)), Tensor(b16.astype(np.float32))).dtype == ms.float32

u16 = np.array([-0.9, -0.3, 0.0, 0.45, 0.8], np.float16)
for fn, ref, arg in ((ops.asin, np.arcsin, u16), (ops.acos, np.arccos, u16), (ops.atan, np.arctan, u16 * 4),
                     (ops.asinh, np.arcsinh, u16 * 4), (ops.acosh, np.arccosh, np.abs(u16) + 1),
                     (ops.atanh, np.arctanh, u16), (P.Asin(), np.arcsin, u16), (P.ACos(), np.arccos, u16), (ops.arctan, np.arctan, u16)):
    out = fn(Tensor(arg))
    assert out.dtype == ms.float16, fn
    close(out, ref(arg.astype(np.float32)).astype(np.float16), rtol=2e-3, atol=2e-3)
g = ms.grad(lambda t: ops.asin(t).sum())(Tensor(u16))
assert g.dtype == ms.float16
close(g, 1 / np.sqrt(1 - u16.astype(np.float32) ** 2), rtol=5e-3, atol=5e-3)
