"""float16 cumsum / cumprod round every partial result to float16 in order, as MindSpore's CPU
kernels (and NumPy) do, so the results are bit-equal to NumPy's float16 scan; other dtypes keep
the tree-ordered scan. The gradient of a float16 cumsum is the reversed cumsum of the sensitivity."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import close

rng = np.random.default_rng(11)
x = rng.random((3, 40, 2)).astype(np.float16)
for axis in (0, 1, -1):
    out = ops.cumsum(Tensor(x), axis)
    assert out.dtype == ms.float16
    assert (out.asnumpy() == np.cumsum(x, axis=axis)).all(), axis
    prod = ops.cumprod(Tensor(x + np.float16(0.5)), axis)
    assert (prod.asnumpy() == np.cumprod(x + np.float16(0.5), axis=axis)).all(), axis

# reverse and exclusive go through the same scan
rev = P.CumSum(reverse=True)(Tensor(x), 1).asnumpy()
assert (rev == np.flip(np.cumsum(np.flip(x, 1), 1), 1)).all()
exc = P.CumSum(exclusive=True)(Tensor(x), 1).asnumpy()
assert (exc[:, 1:] == np.cumsum(x, 1)[:, :-1]).all() and (exc[:, 0] == 0).all()

g = ms.grad(lambda t: (ops.cumsum(t, 0) * Tensor(np.arange(1, 6, dtype=np.float16))).sum())(
    Tensor(np.ones(5, np.float16)))
close(g, np.cumsum(np.arange(1, 6)[::-1])[::-1])
