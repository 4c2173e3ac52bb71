"""Row updates and scatters of mindspore.ops: inplace_update / add / sub and inplace_index_add (and
their primitive classes), the scatter_* family returning the new value as a Tensor while writing
the Parameter, gather with batch_dims, sparse_segment_mean; values, gradients and errors."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Parameter, Tensor

from _check import close, fd_grad, raises

x = np.arange(12, dtype=np.float64).reshape(4, 3)
v = np.array([[10.0, 20.0, 30.0], [-1.0, -2.0, -3.0]])
X, V = Tensor(x), Tensor(v)
want = x.copy()
want[[3, 1]] = v
close(ops.inplace_update(X, V, (3, 1)), want)
close(ops.inplace_update(X, V, Tensor(np.array([-1, 1]))), want)
want = x.copy()
want[[0, 2]] += v
close(ops.inplace_add(X, V, (0, 2)), want)
want = x.copy()
want[2] -= v[0]
close(ops.inplace_sub(X, V[:1], 2), want)
close(X, x)  # the input is left as it was
rows = np.arange(4)[:, None]
close(ops.InplaceAdd((0, 2))(X, V), x + np.where(rows == 0, v[0], 0) + np.where(rows == 2, v[1], 0))
close(ops.InplaceSub(1)(X, V[1:]), x - np.where(rows == 1, v[1], 0))
close(ops.InplaceUpdateV2()(X, (0,), V[:1]), np.vstack([v[:1], x[1:]]))
# gradients: the update's rows reach v, the replaced rows of x get none
f = lambda a: ops.sum(ops.inplace_update(a, V, (3, 1)) ** 2)
close(ms.grad(f)(X), 2 * x * np.array([[1], [0], [1], [0]]))
g = lambda b: ops.sum(ops.inplace_add(X, b, (0, 2)) ** 2)
close(ms.grad(g)(V), 2 * (x[[0, 2]] + v))
raises(TypeError, ops.inplace_add, X, V, [0, 1.5], match="'indices' must be an int or a tuple of ints")
raises(ValueError, ops.inplace_add, X, V, (0, 1, 2), match="must be equal to v.shape[0]")
raises(ValueError, ops.inplace_update, X, V, (0, 4), match="must be in range [-4, 4)")
raises(ValueError, ops.inplace_sub, X, Tensor(np.ones((2, 2))), (0, 1), match="except the first dimension")
raises(TypeError, ops.InplaceAdd, 1.0, match="'indices' must be an int or a tuple")

var = Parameter(Tensor(x.astype(np.float32)), name="var")
out = ops.inplace_index_add(var, Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.ones((4, 3), np.float32)), 1)
want = x.copy()
want[:, 0] += 2
want[:, 2] += 1
close(out, want)
close(var, want)  # the Parameter took the result
out = ops.InplaceIndexAdd(axis=0)(var, Tensor(np.array([1], np.int32)), Tensor(np.ones((1, 3), np.float32)))
want[1] += 1
close(var, want)
raises(TypeError, ops.inplace_index_add, X, Tensor(np.array([0])), V, 0, match="must be a Parameter")

# the scatter family returns the updated value (printing shows numbers), the Parameter is written
p = Parameter(Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], np.float32)), name="p")
out = ops.scatter_mul(p, Tensor(np.array([[0, 1], [1, 1]], np.int32)),
                      Tensor(np.array([[[1.0, 2.0], [3.0, 3.0]], [[5.0, 5.0], [7.0, 7.0]]], np.float32)))
assert not isinstance(out, Parameter) and isinstance(out, Tensor)
close(out, [[1.0, 2.0], [210.0, 210.0]])
close(p, [[1.0, 2.0], [210.0, 210.0]])
assert "Parameter" not in str(ops.scatter_add(p, Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32))))
close(p, [[2.0, 3.0], [210.0, 210.0]])
q = Parameter(Tensor(np.arange(6, dtype=np.float32)), name="q")
close(ops.scatter_nd_sub(q, Tensor(np.array([[1], [4], [1]], np.int32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))),
      [0.0, -3.0, 2.0, 3.0, 2.0, 5.0])
close(q, [0.0, -3.0, 2.0, 3.0, 2.0, 5.0])

# gather with batch_dims
params = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
idx = np.array([[1, 0, 4], [2, 2, 3]])
got = ops.gather(Tensor(params), Tensor(idx), 3, 1)
assert got.shape == (2, 3, 4, 3)
close(got, np.stack([np.take(params[b], idx[b], axis=2) for b in range(2)]))
idx2 = np.array([[[0, 3], [1, 1], [2, 0]], [[3, 3], [0, 1], [2, 2]]])
close(ops.gather(Tensor(params), Tensor(idx2), 2, 2),
      np.stack([np.stack([params[b, c][idx2[b, c]] for c in range(3)]) for b in range(2)]))
small = params[:, :, :1, :] / 50.0
close(ms.grad(lambda a: ops.sum(ops.gather(a, Tensor(idx), 3, 1) ** 2))(Tensor(small)),
      fd_grad(lambda a: ops.sum(ops.gather(a, Tensor(idx), 3, 1) ** 2), small), rtol=1e-6, atol=1e-8)
close(ops.gather(Tensor(params), Tensor(np.array([2, 0])), 1), params[:, [2, 0]])  # batch_dims 0 as before
raises(ValueError, ops.gather, Tensor(params), Tensor(idx[:, :1].T), 3, 1, match="must be equal")

# sparse_segment_mean: empty segments give 0
data = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 9.0]]))
close(ops.sparse_segment_mean(data, Tensor(np.array([2, 0, 1], np.int32)), Tensor(np.array([0, 0, 3], np.int32))),
      [[3.0, 5.5], [0, 0], [0, 0], [3.0, 4.0]])
raises(ValueError, ops.sparse_segment_mean, data, Tensor(np.array([0, 1], np.int32)),
       Tensor(np.array([1, 0], np.int32)), match="must be sorted")
