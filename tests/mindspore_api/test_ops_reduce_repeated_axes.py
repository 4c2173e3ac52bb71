"""Reduce primitives and functions with a repeated axis reduce it once, as MindSpore's shape
inference sorts and dedupes the axes: values against NumPy over the distinct axes, shapes with and
without keep_dims, and the gradient of the mean."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import close

x = np.arange(36, dtype=np.float32).reshape(3, 2, 6)
t = Tensor(x)
close(P.ReduceMean(False)(t, (0, 1, -2)), x.mean(axis=(0, 1)))
close(P.ReduceSum(True)(t, (2, -1)), x.sum(axis=2, keepdims=True))
close(P.ReduceMax(False)(t, (1, 1)), x.max(axis=1))
close(P.ReduceMin(False)(t, (0, -3)), x.min(axis=0))
close(P.ReduceProd(False)(t / 10, (-1, 2)), (x / 10).prod(axis=2), rtol=1e-4)
assert ops.sum(t, (0, 0)).shape == (2, 6)
g = ms.grad(lambda a: P.ReduceMean(False)(a, (0, 1, -2)).sum())(t)
close(g, np.full(x.shape, 1.0 / 6))
