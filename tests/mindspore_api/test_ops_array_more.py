"""Array functions of mindspore.ops: rot90, reverse_sequence, sequence_mask, slices, expand,
diagonal_scatter, index_fill, combinations, tri indices, histc, quantile, the scatter reductions,
segment max/min/prod, space/batch moves, unfold/fold and the windows (against NumPy)."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Parameter, Tensor

from _check import close, raises

x = np.arange(24.0).reshape(2, 3, 4)
for k in (1, 2, 3, -1):
    close(ops.rot90(Tensor(x), k, (1, 2)), np.rot90(x, k, (1, 2)))
close(ops.reverse(Tensor(x), (0, 2)), x[::-1, :, ::-1])
seq = np.arange(12.0).reshape(3, 4)
close(ops.reverse_sequence(Tensor(seq), Tensor(np.array([1, 2, 4])), 1),
      [[0, 1, 2, 3], [5, 4, 6, 7], [11, 10, 9, 8]])
close(ops.reverse_sequence(Tensor(seq.T.copy()), Tensor(np.array([1, 2, 4])), 0, 1),
      np.array([[0, 1, 2, 3], [5, 4, 6, 7], [11, 10, 9, 8]]).T)
close(ms.grad(lambda t: (ops.reverse_sequence(t, Tensor(np.array([2, 3, 1])), 1) * Tensor(seq)).sum())(Tensor(seq)),
      [[1, 0, 2, 3], [6, 5, 4, 7], [8, 9, 10, 11]])
close(ops.sequence_mask(Tensor(np.array([1, 3, 2])), 4),
      [[True, False, False, False], [True, True, True, False], [True, True, False, False]])
assert ops.sequence_mask(Tensor(np.array([[1, 3]]))).shape == (1, 2, 3)
close(ops.slice(Tensor(x), (0, 1, 1), (2, 2, -1)), x[:, 1:3, 1:])
close(ops.strided_slice(Tensor(x), (0, 0, 3), (2, 3, 0), (1, 2, -1)), x[0:2, 0:3:2, 3:0:-1])
close(ops.expand(Tensor(np.array([[1.0], [2.0]])), Tensor(np.array([3, 2, -1]))), np.broadcast_to([[1.0], [2.0]], (3, 2, 1)))
close(ops.expand(Tensor(np.array([[1.0], [2.0]])), (2, 4)), np.broadcast_to([[1.0], [2.0]], (2, 4)))
close(ops.diagflat(Tensor(np.array([[1.0, 2.0]])), 1), np.diagflat([1.0, 2.0], 1))
sq = np.zeros((3, 4))
close(ops.diagonal_scatter(Tensor(sq), Tensor(np.array([1.0, 2.0, 3.0])), 1), sq + np.eye(3, 4, 1) * [0, 1, 2, 3])
close(ops.diagonal_scatter(Tensor(np.zeros((2, 3, 3))), Tensor(np.ones((2, 3))), 0, 1, 2)[1], np.eye(3))
close(ops.index_fill(Tensor(seq), 1, Tensor(np.array([0, 2])), -1.0), np.where(np.isin(np.arange(4), [0, 2]), -1.0, seq))
close(ops.dsplit(Tensor(x), 2)[1], x[:, :, 2:])
close(ops.combinations(Tensor(np.array([1.0, 2.0, 3.0]))), [[1, 2], [1, 3], [2, 3]])
close(ops.combinations(Tensor(np.array([1.0, 2.0])), with_replacement=True), [[1, 1], [1, 2], [2, 2]])
close(ops.cartesian_prod(Tensor(np.array([1, 2])), Tensor(np.array([5, 6, 7]))),
      [[1, 5], [1, 6], [1, 7], [2, 5], [2, 6], [2, 7]])
close(ops.tril_indices(3, 4, 1), np.stack(np.tril_indices(3, 1, 4)))
close(ops.triu_indices(4, 3, -1), np.stack(np.triu_indices(4, -1, 3)))
assert ops.tril_indices(2, 2, dtype=ms.int32).dtype == ms.int32
h = np.array([1.0, 2.0, 1.0, 4.0, 9.0])
close(ops.histc(Tensor(h), bins=4, min=0.0, max=4.0), [0, 2, 1, 1])
close(ops.histc(Tensor(h), bins=2), [4, 1])
hx = ops.histc(Tensor(np.array([1.0, 2, 1], np.float32)), bins=4, min=0.0, max=3.0)  # MindSpore's example
assert hx.dtype == ms.int32
close(hx, [0, 2, 1, 0])
raises(ValueError, ops.histc, Tensor(h), 4, 3.0, 1.0, match="For 'Histogram'")
v = np.array([[3.0, 1.0, 4.0, 1.5], [9.0, 2.0, 6.0, 5.0]])
close(ops.quantile(Tensor(v), 0.3, axis=1), np.quantile(v, 0.3, axis=1), rtol=1e-12)
close(ops.quantile(Tensor(v), Tensor(np.array([0.0, 0.5, 1.0])), axis=1, keepdims=True),
      np.quantile(v, [0.0, 0.5, 1.0], axis=1, keepdims=True), rtol=1e-12)
close(ops.quantile(Tensor(v), 0.75), np.quantile(v, 0.75), rtol=1e-12)
close(ms.grad(lambda t: ops.quantile(t, 0.5, axis=1).sum())(Tensor(v)), [[0.5, 0, 0, 0.5], [0, 0, 0.5, 0.5]])
vn = v.copy()
vn[0, 1] = np.nan
close(ops.nanquantile(Tensor(vn), 0.5, axis=1), np.nanquantile(vn, 0.5, axis=1))
raises(ValueError, ops.quantile, Tensor(v), 1.5, match="For 'quantile'")

base = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
upd = np.array([[2.0, 2.0], [10.0, 0.5], [4.0, 4.0]])
idx = np.array([0, 2, 0])
close(ops.scatter_mul(Tensor(base), Tensor(idx), Tensor(upd)), [[8, 16], [3, 4], [50, 3]])
close(ops.scatter_div(Tensor(base), Tensor(idx), Tensor(upd)), [[1 / 8, 2 / 8], [3, 4], [0.5, 12]])
close(ops.scatter_max(Tensor(base), Tensor(idx), Tensor(upd)), [[4, 4], [3, 4], [10, 6]])
close(ops.scatter_min(Tensor(base), Tensor(idx), Tensor(upd)), [[1, 2], [3, 4], [5, 0.5]])
p = Parameter(Tensor(base.copy()), name="p")
ops.scatter_nd_add(p, Tensor(np.array([[0, 1], [2, 0], [0, 1]])), Tensor(np.array([1.0, 2.0, 3.0])))
close(p, [[1, 6], [3, 4], [7, 6]])
nd = np.array([[1], [1]])
close(ops.scatter_nd_update(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [10, 0.5], [5, 6]])
close(ops.scatter_nd_sub(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [-9, 1.5], [5, 6]])
close(ops.tensor_scatter_mul(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [60, 4], [5, 6]])
close(ops.tensor_scatter_div(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [3 / 20, 4], [5, 6]])
close(ops.tensor_scatter_max(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [10, 4], [5, 6]])
close(ops.tensor_scatter_min(Tensor(base), Tensor(nd), Tensor(upd[:2])), [[1, 2], [2, 0.5], [5, 6]])
close(ms.grad(lambda b: ops.tensor_scatter_mul(b, Tensor(nd), Tensor(upd[:2])).sum())(Tensor(base)),
      [[1, 1], [20, 1], [1, 1]])
raises(RuntimeError, ops.tensor_scatter_mul, Tensor(base), Tensor(np.array([[3]])), Tensor(upd[:1]),
       match="For 'TensorScatterMul'")
seg = np.array([0, 1, 0])
close(ops.unsorted_segment_max(Tensor(base), Tensor(seg), 2), [[5, 6], [3, 4]])
close(ops.unsorted_segment_min(Tensor(base), Tensor(seg), 2), [[1, 2], [3, 4]])
close(ops.unsorted_segment_prod(Tensor(base), Tensor(seg), 2), [[5, 12], [3, 4]])

img = np.arange(32.0).reshape(2, 1, 4, 4)
s2b = ops.space_to_batch_nd(Tensor(img), 2, ((0, 0), (0, 0)))
assert s2b.shape == (8, 1, 2, 2)
close(s2b[1, 0], img[1, 0, 0::2, 0::2])  # batch index = block offset * N + n
close(s2b[2, 0], img[0, 0, 0::2, 1::2])
close(s2b[2 * 2 + 1, 0], img[1, 0, 1::2, 0::2])
close(ops.batch_to_space_nd(s2b, (2, 2), ((0, 0), (0, 0))), img)
padded = ops.space_to_batch_nd(Tensor(np.arange(9.0).reshape(1, 1, 3, 3)), (2, 2), ((1, 0), (0, 1)))
close(ops.batch_to_space_nd(padded, (2, 2), ((1, 0), (0, 1))), np.arange(9.0).reshape(1, 1, 3, 3))
close(ops.mirror_pad(Tensor(np.array([[1.0, 2.0, 3.0]])), Tensor(np.array([[0, 0], [2, 1]]))), [[3, 2, 1, 2, 3, 2]])
close(ops.padding(Tensor(np.array([[8.0], [10.0]])), 3), [[8, 0, 0], [10, 0, 0]])
vals, ids = ops.top_k(Tensor(np.array([1.0, 5.0, 3.0])), 2)
close(vals, [5.0, 3.0])
close(ids, [1, 2])

im = np.random.default_rng(1).standard_normal((2, 3, 5, 6))
cols = ops.unfold(Tensor(im), (2, 3), dilation=1, padding=1, stride=(2, 1))
pim = np.pad(im, ((0, 0), (0, 0), (1, 1), (1, 1)))
ref = np.stack([pim[:, :, i * 2:i * 2 + 2, j:j + 3].reshape(2, -1) for i in range(3) for j in range(6)], -1)
close(cols, ref)
# fold is unfold's adjoint: <unfold(x), y> == <x, fold(y)>
ycols = np.random.default_rng(2).standard_normal(tuple(cols.shape))
back = ops.fold(Tensor(ycols), (5, 6), (2, 3), padding=1, stride=(2, 1))
assert back.shape == (2, 3, 5, 6)
close(np.sum(ref * ycols), np.sum(im * back.asnumpy()), rtol=1e-12)
close(ops.fold(ops.unfold(Tensor(np.ones((1, 1, 3, 3))), 2), Tensor(np.array([3, 3])), 2),
      [[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]]])

close(ops.hamming_window(5, periodic=False), np.hamming(5), rtol=1e-6)
close(ops.hamming_window(4), np.hamming(5)[:4], rtol=1e-6, atol=1e-7)
close(ops.blackman_window(6, periodic=False, dtype=ms.float64), np.blackman(6), atol=1e-15)
close(ops.kaiser_window(7, False, 5.0, dtype=ms.float64), np.kaiser(7, 5.0), rtol=1e-12)
assert ops.hamming_window(3).dtype == ms.float32
