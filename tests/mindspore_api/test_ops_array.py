"""Shape, indexing and sorting ops of mindspore.ops composed in Python: values against NumPy,
gradients against closed forms / finite differences, MindSpore's error texts."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import check_grad, close, fd_grad, raises

rng = np.random.default_rng(3)
x = rng.standard_normal((3, 4))
t = Tensor(x)




# ---- shapes
parts = ops.chunk(t, 3, 1)
assert [p.shape for p in parts] == [(3, 2), (3, 2)]
parts = ops.chunk(Tensor(np.arange(5.0)), 2)
assert [p.shape for p in parts] == [(3,), (2,)]
close(ops.flip(t, (0, 1)), x[::-1, ::-1])
close(ops.roll(t, 1, 1), np.roll(x, 1, 1))
close(ops.roll(t, (-1, 2), (0, 1)), np.roll(x, (-1, 2), (0, 1)))
close(ops.roll(t, 3), np.roll(x, 3))
close(ops.tril(t), np.tril(x))
close(ops.triu(t, 1), np.triu(x, 1))
r3 = rng.standard_normal((2, 3, 3))
close(ops.tril(Tensor(r3), -1), np.tril(r3, -1))  # batched: the last two axes
close(ops.eye(2, 3, ms.int32), np.eye(2, 3))
assert ops.eye(2, 3, ms.int32).dtype == ms.int32
close(ops.linspace(Tensor(0.0), Tensor(1.0), 5), np.linspace(0, 1, 5))
close(ops.full_like(t, 2.5), np.full_like(x, 2.5))
close(ops.narrow(t, 1, 1, 2), x[:, 1:3])
close(ops.repeat_interleave(t, 2, 0), np.repeat(x, 2, 0))
close(ops.repeat_interleave(Tensor(np.array([1, 2])), Tensor(np.array([1, 3]))), [1, 2, 2, 2])
close(ops.swapaxes(Tensor(np.zeros((2, 3, 4))), 0, 2), np.zeros((4, 3, 2)))
close(ops.moveaxis(Tensor(np.zeros((2, 3, 4))), 0, -1), np.zeros((3, 4, 2)))
close(ops.diagonal(t, 1), np.diagonal(x, 1))
a, b = ops.meshgrid(Tensor(np.arange(3.0)), Tensor(np.arange(2.0)), indexing="ij")
na, nb = np.meshgrid(np.arange(3.0), np.arange(2.0), indexing="ij")
close(a, na)
close(b, nb)
close(ops.unbind(t, 1)[2], x[:, 2])
raises(ValueError, ops.narrow, t, 1, 3, 2, match="For 'narrow'")
raises(ValueError, ops.tril, Tensor(np.ones(3)), match="For 'Tril', the rank of 'input' must be at least 2")

# ---- pad
close(ops.pad(t, (1, 2)), np.pad(x, ((0, 0), (1, 2))))
close(ops.pad(t, (1, 1, 2, 0), value=3.0), np.pad(x, ((2, 0), (1, 1)), constant_values=3.0))
close(ops.pad(t, (2, 1), mode="reflect"), np.pad(x, ((0, 0), (2, 1)), mode="reflect"))
close(ops.pad(t, (2, 1, 1, 1), mode="replicate"), np.pad(x, ((1, 1), (2, 1)), mode="edge"))
close(ops.pad(t, (1, 1), mode="circular"), np.pad(x, ((0, 0), (1, 1)), mode="wrap"))
close(ops.pad(t, (-1, 1)), np.pad(x[:, 1:], ((0, 0), (0, 1))))
raises(ValueError, ops.pad, t, (1,), match="For 'pad', the length of 'padding' must be even")
raises(ValueError, ops.pad, t, (1, 1), "bogus", match="'mode' must be one of")
check_grad(lambda a: (ops.pad(a, (2, 1), mode="reflect") ** 2).sum(), x)
check_grad(lambda a: (ops.pad(a, (1, 1, 1, 1), mode="replicate") * Tensor(np.arange(30.0).reshape(5, 6))).sum(), x)

# ---- indexing
idx = np.array([[0, 3], [2, 2], [1, 0]])
close(ops.gather_elements(t, 1, Tensor(idx)), np.take_along_axis(x, idx, 1))
idx0 = np.array([[2, 0, 1, 1]])
close(ops.gather_d(t, 0, Tensor(idx0, ms.int32)), np.take_along_axis(x, idx0, 0))
# the gradient scatters back, adding repeated picks
g = ms.grad(lambda a: ops.gather_elements(a, 1, Tensor(idx)).sum())(t).asnumpy()
want = np.zeros_like(x)
for r in range(3):
    for c in idx[r]:
        want[r, c] += 1
close(g, want)
raises(ValueError, ops.gather_elements, t, 1, Tensor(np.zeros((3,), np.int64)), match="For 'GatherD'")
close(ops.gather_nd(t, Tensor(np.array([[0, 1], [2, 3]]))), [x[0, 1], x[2, 3]])
close(ops.gather_nd(t, Tensor(np.array([[2], [0]]))), x[[2, 0]])
close(ops.index_select(t, 1, Tensor(np.array([3, 0]))), x[:, [3, 0]])
close(ops.masked_select(t, t > 0), x[x > 0])
close(ops.masked_fill(t, t > 0, 0.5), np.where(x > 0, 0.5, x))
close(ops.masked_fill(t, Tensor(np.array([True, False, False, True])), Tensor(-1.0)), np.where([1, 0, 0, 1], -1.0, x))
raises(TypeError, ops.masked_fill, t, t, 0.0, match="For 'MaskedFill', the dtype of 'mask' must be bool")
check_grad(lambda a: (ops.masked_fill(a, Tensor(x > 0), 0.0) ** 2).sum(), x)

ind = Tensor(np.array([[1], [0], [1]]))
close(ops.scatter_nd(ind, Tensor(np.array([1.0, 2.0, 3.0])), (3,)), [2.0, 4.0, 0.0])
close(ops.scatter_nd(Tensor(np.array([[0, 1]])), Tensor(np.array([5], np.int32)), (2, 2)), [[0, 5], [0, 0]])
upd = ops.tensor_scatter_update(t, Tensor(np.array([[0, 1], [2, 3]])), Tensor(np.array([7.0, 8.0])))
want = x.copy()
want[0, 1], want[2, 3] = 7.0, 8.0
close(upd, want)
add = ops.tensor_scatter_add(t, Tensor(np.array([[0, 1], [0, 1]])), Tensor(np.array([1.0, 2.0])))
want = x.copy()
want[0, 1] += 3.0
close(add, want)
# gradients of the scatters: updates get the incoming gradient, overwritten input positions none
gx, gu = ms.grad(lambda a, u: (ops.tensor_scatter_update(a, Tensor(np.array([[1, 1]])), u) * 2).sum(),
                 grad_position=(0, 1))(t, Tensor(np.array([1.0])))
want = np.full_like(x, 2.0)
want[1, 1] = 0.0
close(gx, want)
close(gu, [2.0])
close(ops.scatter(Tensor(np.zeros((2, 3))), 1, Tensor(np.array([[0], [2]])), Tensor(np.array([[5.0], [6.0]]))),
      [[5, 0, 0], [0, 0, 6]])
close(ops.one_hot(Tensor(np.array([0, 2])), 3, Tensor(1.0), Tensor(0.0)), np.eye(3)[[0, 2]])

# ---- sorting and searching
v = Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]]))
vals, order = ops.sort(v)
close(vals, np.sort(v.asnumpy(), 1))
close(order, np.argsort(v.asnumpy(), 1))
assert order.dtype == ms.int32
vals, order = ops.sort(v, 0, descending=True)
close(vals, -np.sort(-v.asnumpy(), 0))
close(ops.argsort(v, descending=True), [[0, 2, 1], [1, 0, 2]])
vals, order = ops.topk(v, 2)
close(vals, [[3.0, 2.0], [5.0, 0.0]])
close(order, [[0, 2], [1, 0]])
vals, order = ops.topk(v, 1, dim=0, largest=False)
close(vals, [[0.0, 1.0, -1.0]])
raises(ValueError, ops.topk, v, 4, match="For 'TopK'")
close(ms.grad(lambda a: ops.topk(a, 2)[0].sum())(v), [[1, 0, 1], [1, 1, 0]])
close(ms.grad(lambda a: (ops.sort(a)[0] * Tensor(np.array([1.0, 2.0, 3.0]))).sum())(v), [[3, 1, 2], [2, 3, 1]])
u, inv = ops.unique(Tensor(np.array([3, 1, 3, 2])))  # order of first occurrence (MindSpore's CPU kernel)
close(u, [3, 1, 2])
close(inv, [0, 1, 0, 2])
close(ops.nonzero(Tensor(np.array([[0, 1], [1, 0]]))), [[0, 1], [1, 0]])
close(ops.searchsorted(Tensor(np.array([1.0, 3.0, 5.0])), Tensor(np.array([3.0, 6.0]))), [1, 3])
print("ok")

# sort / topk inside a compiled function (values unknown at compile time: pairwise ranks)
ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit
def top2(a):
    vals, ind = ops.topk(a, 2)
    svals, sind = ops.sort(a, 0, True)
    return vals, ind, svals, sind


tie = Tensor(np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, -1.0, 5.0]]))
vals, ind, svals, sind = top2(tie)
close(vals, [[3.0, 2.0], [5.0, 5.0]])
close(ind, [[0, 2], [1, 3]])  # ties keep their order
close(svals, [[3.0, 5.0, 2.0, 5.0], [0.0, 1.0, -1.0, 1.0]])
close(sind, [[0, 1, 0, 1], [1, 0, 1, 0]])
close(ms.grad(lambda a: top2(a)[0].sum())(tie), [[1, 0, 1, 0], [0, 1, 0, 1]])
ms.set_context(mode=ms.PYNATIVE_MODE)
print("graph ok")
de = ops.diag_embed(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]])), 1)
close(de, [np.diag([1.0, 2.0], 1), np.diag([3.0, 4.0], 1)])
print("diag_embed ok")
