"""ops.cummax / ops.cummin and the primitives P.Cummax, _inner_ops.Cummin: running extreme and
the index it came from (the later element on a tie, a NaN from where it appears), for integer
dtypes too and inside graph-mode functions; the gradient goes to the element chosen. Also
P.BatchToSpaceND / P.SpaceToBatchND, which hold their block attributes."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, context, jit, ops
from mindspore.ops import operations as P
from mindspore.ops.operations._inner_ops import Cummin

from _check import close


def reference(a, axis, take_max):
    a = np.moveaxis(a, axis, -1)
    vals, idx = np.empty_like(a), np.zeros(a.shape, np.int64)
    best, at = a[..., 0].copy(), np.zeros(a.shape[:-1], np.int64)
    for j in range(a.shape[-1]):
        v = a[..., j]
        take = v >= best if take_max else v <= best
        if a.dtype.kind == "f":
            take = (take | np.isnan(v)) & ~np.isnan(best)
        best, at = np.where(take, v, best), np.where(take, j, at)
        vals[..., j], idx[..., j] = best, at
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


rng = np.random.default_rng(5)
ties = rng.integers(0, 4, (3, 6, 2))
for npt in (np.uint8, np.int32, np.int64, np.float16, np.float32):
    a = ties.astype(npt)
    for axis in (1, -1, 0):
        for take_max, fn in ((True, ops.cummax), (False, ops.cummin)):
            v, i = fn(Tensor(a), axis)
            rv, ri = reference(a, axis, take_max)
            assert v.dtype == Tensor(a).dtype
            close(v, rv)
            assert (i.asnumpy() == ri).all(), (npt, axis, take_max, i, ri)

nan, inf = float("nan"), float("inf")
x = np.array([4, inf, 1.5, -inf, 0, nan, 1, nan], np.float32)
v, i = ops.cummin(Tensor(x), 0)
close(v, [4, 4, 1.5, -inf, -inf, nan, nan, nan])
assert i.asnumpy().tolist() == [0, 0, 2, 3, 3, 5, 5, 5]
v, i = P.Cummax(0)(Tensor(x))
close(v, [4, inf, inf, inf, inf, nan, nan, nan])
assert i.asnumpy().tolist() == [0, 1, 1, 1, 1, 5, 5, 5]


@jit
def compiled(t):
    return Cummin(1)(t)


context.set_context(mode=context.GRAPH_MODE)
v, i = compiled(Tensor(ties.astype(np.int32)))
rv, ri = reference(ties.astype(np.int32), 1, False)
close(v, rv)
assert (i.asnumpy() == ri).all()
context.set_context(mode=context.PYNATIVE_MODE)

g = ms.grad(lambda t: ops.cummax(t, 0)[0].sum())(Tensor(np.array([1.0, 3.0, 2.0, 3.0, 0.5], np.float32)))
close(g, [1, 2, 0, 2, 0])   # indices [0, 1, 1, 3, 3]: each output sends its gradient to its source

# SpaceToBatchND then BatchToSpaceND with the same blocks gives the input back
img = rng.standard_normal((2, 3, 4, 6)).astype(np.float32)
s2b = P.SpaceToBatchND([2, 3], [[0, 0], [0, 0]])
assert s2b.block_shape == [2, 3]
packed = s2b(Tensor(img))
assert packed.shape == (12, 3, 2, 2)
close(P.BatchToSpaceND([2, 3], [[0, 0], [0, 0]])(packed), img)
close(packed, ops.space_to_batch_nd(Tensor(img), [2, 3], [[0, 0], [0, 0]]))
