"""Tensor's &, | and ^ are MindSpore's BitwiseAnd / BitwiseOr / BitwiseXor: bit by bit on integer
Tensors (signed and unsigned, with Python ints on either side), logical on bool Tensors (masks from
comparisons, also in graph mode), and a TypeError for float Tensors."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, jit

from _check import raises

rng = np.random.default_rng(2)
for npt in (np.int8, np.int32, np.int64, np.uint8, np.uint16):
    a = (rng.standard_normal(7) * 100).astype(npt)
    b = (rng.standard_normal(7) * 100).astype(npt)
    x, y = Tensor(a), Tensor(b)
    for got, want in (((x & y), a & b), ((x | y), a | b), ((x ^ y), a ^ b),
                      ((x & 6), a & npt(6)), ((6 | x), npt(6) | a), ((x ^ 5), a ^ npt(5))):
        assert got.dtype == x.dtype, (npt, got.dtype)
        assert (got.asnumpy() == want).all(), (npt, got, want)

v = Tensor(np.array([1.0, -2.0, 3.0, 0.5], np.float32))
mask = (v > 0) & (v < 2)
assert mask.dtype == ms.bool_ and mask.asnumpy().tolist() == [True, False, False, True]
assert ((v > 0) ^ (v > 1)).asnumpy().tolist() == [True, False, False, True]


@jit
def either(t):
    return ((t > 2) | (t < -1)) & (t != 3)


assert either(v).asnumpy().tolist() == [False, True, False, False]
raises(TypeError, lambda: v & v, match="BitwiseAnd")
