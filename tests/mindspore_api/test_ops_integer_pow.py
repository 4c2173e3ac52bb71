"""Pow of integer tensors stays integer, as MindSpore's Pow (the result dtype is the promoted one
of the operands): Tensor ** int, Tensor.pow, ops.pow with a scalar base; exact values against
NumPy, a negative exponent truncating, a bool base with an int exponent, two bool tensors
rejected; floats and gradients as before."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

from _check import close, raises

a = np.array([1, 2, 3, -4], np.int64)
t = Tensor(a)
for got, want in ((t ** 2, a ** 2), (t.pow(t.abs()), a ** np.abs(a)), (ops.pow(t, 3), a ** 3),
                  (ops.pow(2, Tensor(np.array([0, 1, 10]))), 2 ** np.array([0, 1, 10]))):
    assert got.dtype == ms.int64, got.dtype
    assert np.array_equal(got.asnumpy(), want), (got, want)
i32 = Tensor(np.array([2, 3, 1, -1], np.int32))
r = i32 ** Tensor(np.array([-1, -2, -3, -3], np.int32))
assert r.dtype == ms.int32 and np.array_equal(r.asnumpy(), [0, 0, 1, -1])
big = Tensor(np.array([3], np.int64)) ** 39
assert int(big.asnumpy()[0]) == 3 ** 39  # exact beyond a double's 53 bits
f = Tensor(np.array([1.5, 2.0], np.float32)) ** 2
assert f.dtype == ms.float32
close(f, [2.25, 4.0])
assert ops.pow(t, 2.0).dtype == ms.float32
b = Tensor(np.array([True, False])) ** Tensor(np.array([2, 2], np.int32))
assert b.dtype == ms.int32 and np.array_equal(b.asnumpy(), [1, 0])
raises(TypeError, ops.pow, Tensor(np.array([True])), Tensor(np.array([False])), match="'Pow'")
close(ms.grad(lambda x: (x ** 3).sum())(Tensor(np.array([1.0, 2.0], np.float32))), [3.0, 12.0])
