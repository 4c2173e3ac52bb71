"""mindspore.numpy: NumPy-style functions returning mindspore Tensors (64-bit inputs become
32-bit unless a dtype is given), differentiable through mindspore.ops."""
import numpy as np

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor

from _check import close, raises

a = mnp.array([[1.0, 2.0], [3.0, 4.0]])
assert isinstance(a, Tensor) and a.dtype == ms.float32
assert mnp.array([1, 2]).dtype == ms.int32 and mnp.array([True]).dtype == ms.bool_
assert mnp.array([1, 2], mnp.float64).dtype == ms.float64
assert mnp.asarray(a) is a
assert mnp.array(3.0, ndmin=2).shape == (1, 1)
an = np.array([[1.0, 2.0], [3.0, 4.0]])

close(mnp.zeros((2, 3)), np.zeros((2, 3)))
close(mnp.ones(3, mnp.int32), np.ones(3))
assert mnp.ones(3, mnp.int32).dtype == ms.int32
close(mnp.full((2, 2), 7), np.full((2, 2), 7))
assert mnp.full((2,), 7).dtype == ms.int32
close(mnp.zeros_like(a), np.zeros((2, 2)))
close(mnp.full_like(a, 3.0), np.full((2, 2), 3.0))
close(mnp.arange(5), np.arange(5))
close(mnp.arange(1, 2, 0.25), np.arange(1, 2, 0.25))
close(mnp.linspace(0, 1, 5), np.linspace(0, 1, 5))
close(mnp.eye(2, 3, 1), np.eye(2, 3, 1))
close(mnp.identity(3), np.eye(3))
close(mnp.tri(3), np.tri(3))
close(mnp.diag(mnp.array([1.0, 2.0]), 1), np.diag([1.0, 2.0], 1))
close(mnp.diag(a), np.diag(an))
close(mnp.trace(a), 5.0)

close(mnp.reshape(a, (4,)), an.reshape(4))
close(mnp.ravel(a), an.ravel())
close(mnp.transpose(a), an.T)
close(mnp.transpose(mnp.zeros((2, 3, 4)), (1, 2, 0)), np.zeros((3, 4, 2)))
close(mnp.expand_dims(a, (0, 3)), an.reshape(1, 2, 2, 1))
close(mnp.squeeze(mnp.zeros((1, 2, 1))), np.zeros(2))
close(mnp.concatenate([a, a], 1), np.concatenate([an, an], 1))
close(mnp.concatenate([a, a], None), np.concatenate([an, an], None))
close(mnp.stack([a, a], 2), np.stack([an, an], 2))
close(mnp.hstack([a, a]), np.hstack([an, an]))
close(mnp.vstack([a, a]), np.vstack([an, an]))
close(mnp.split(mnp.arange(6), 3)[1], [2, 3])
raises(ValueError, mnp.split, mnp.arange(5), 2, match="equal division")
close(mnp.array_split(mnp.arange(5), 2)[0], [0, 1, 2])
close(mnp.flip(a), an[::-1, ::-1])
close(mnp.roll(a, 1, 1), np.roll(an, 1, 1))
close(mnp.tile(a, (2, 1)), np.tile(an, (2, 1)))
close(mnp.repeat(a, 2, 0), np.repeat(an, 2, 0))
close(mnp.broadcast_to(mnp.array([1.0, 2.0]), (3, 2)), np.broadcast_to([1.0, 2.0], (3, 2)))
close(mnp.pad(a, ((1, 0), (0, 2))), np.pad(an, ((1, 0), (0, 2))))
close(mnp.pad(a, 1, mode="edge"), np.pad(an, 1, mode="edge"))

close(mnp.sum(a), 10.0)
close(mnp.sum(a, axis=0, keepdims=True), an.sum(0, keepdims=True))
close(mnp.mean(a, 1), an.mean(1))
close(mnp.prod(a, 0), an.prod(0))
close(mnp.std(a), an.std())
close(mnp.var(a, 0, ddof=1), an.var(0, ddof=1))
close(mnp.amax(a, 1), an.max(1))
close(mnp.amin(a), an.min())
close(mnp.max(a), 4.0)
close(mnp.ptp(a, 1), [1.0, 1.0])
close(mnp.argmax(a), 3)
close(mnp.argmin(a, 1), [0, 0])
close(mnp.cumsum(a), np.cumsum(an))
close(mnp.cumprod(a, 1), np.cumprod(an, 1))
close(mnp.average(a, 1, mnp.array([1.0, 3.0])), np.average(an, 1, [1.0, 3.0]))
close(mnp.all(a > 0), True)
close(mnp.any(a > 3, 0), [False, True])
close(mnp.count_nonzero(mnp.array([0, 1, 2])), 2)
close(mnp.diff(mnp.array([1.0, 4.0, 9.0])), [3.0, 5.0])

close(mnp.dot(a, a), an @ an)
close(mnp.dot(mnp.array([1.0, 2.0]), mnp.array([3.0, 4.0])), 11.0)
close(mnp.matmul(a, a), an @ an)
close(mnp.outer(mnp.array([1.0, 2.0]), mnp.array([3.0, 4.0, 5.0])), np.outer([1, 2], [3, 4, 5]))
close(mnp.inner(a, a), np.inner(an, an))
close(mnp.tensordot(a, a, 1), np.tensordot(an, an, 1))
close(mnp.kron(a, mnp.eye(2)), np.kron(an, np.eye(2)))
close(mnp.cross(mnp.array([1.0, 0.0, 0.0]), mnp.array([0.0, 1.0, 0.0])), [0.0, 0.0, 1.0])

close(mnp.where(a > 2, a, 0.0), np.where(an > 2, an, 0.0))
close(mnp.where(a > 2)[0], np.where(an > 2)[0])
close(mnp.clip(a, 2, 3), np.clip(an, 2, 3))
close(mnp.exp(a), np.exp(an))
close(mnp.log(a), np.log(an))
close(mnp.sqrt(a), np.sqrt(an))
close(mnp.abs(-a), an)
close(mnp.maximum(a, 2.5), np.maximum(an, 2.5))
close(mnp.minimum(a, 2.5), np.minimum(an, 2.5))
close(mnp.power(a, 2), an ** 2)
close(mnp.add(a, 1), an + 1)
close(mnp.subtract(a, a), np.zeros((2, 2)))
close(mnp.multiply(a, a), an * an)
close(mnp.divide(a, 2), an / 2)
close(mnp.floor_divide(a, 1.5), np.floor_divide(an, 1.5))
close(mnp.remainder(a, 1.5), np.remainder(an, 1.5))
close(mnp.around(mnp.array([1.26, 2.5]), 1), [1.3, 2.5])
close(mnp.isclose(a, a + 1e-9), np.ones((2, 2), bool))
assert mnp.allclose(a, a) and not mnp.allclose(a, a + 1)
assert mnp.array_equal(a, an) and not mnp.array_equal(a, mnp.zeros((2, 2)))
close(mnp.sort(mnp.array([3.0, 1.0, 2.0])), [1.0, 2.0, 3.0])
close(mnp.argsort(mnp.array([3.0, 1.0, 2.0])), [1, 2, 0])
close(mnp.unique(mnp.array([2, 1, 2])), [1, 2])
vals, inv = mnp.unique(mnp.array([5, 2, 5, 9, 2]), return_inverse=True)
close(vals, [2, 5, 9])
close(inv, [1, 0, 1, 2, 0])
close(mnp.take_along_axis(a, mnp.array([[1], [0]]), 1), [[2.0], [3.0]])
close(mnp.select([a < 2, a > 3], [a, -a], 0.0), np.select([an < 2, an > 3], [an, -an], 0.0))
close(mnp.logsumexp(a, 1), np.log(np.exp(an).sum(1)), rtol=1e-5)

# gradients
g = ms.grad(lambda x: mnp.sum(mnp.exp(x) * mnp.dot(x, x)))(Tensor(an))
x = an
# d/dx sum(exp(x) * (x @ x)) = exp(x) * (x@x) + exp(x) @ x.T + x.T @ exp(x)
want = np.exp(x) * (x @ x) + np.exp(x) @ x.T + x.T @ np.exp(x)
close(g, want, rtol=1e-9)
print("ok")
assert mnp.array(np.array([1.0, 2.0])).dtype == ms.float64  # a NumPy array keeps its dtype
assert mnp.array(np.array([1, 2], np.int64)).dtype == ms.int64
assert mnp.asarray([1.5]).dtype == ms.float32
print("dtypes ok")
