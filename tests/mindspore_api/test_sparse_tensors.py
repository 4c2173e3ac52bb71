"""COOTensor, CSRTensor, RowTensor and the sparse functions of mindspore.ops (MindSpore 2.2's
documented examples and semantics), including gradients flowing back to the stored values."""
import numpy as np

import mindspore as ms
from mindspore import COOTensor, CSRTensor, RowTensor, Tensor, ops

from _check import close, raises

# The docs' examples.
indptr = Tensor([0, 1, 2], dtype=ms.int32)
indices = Tensor([0, 1], dtype=ms.int32)
csr = CSRTensor(indptr, indices, Tensor([2, 1], dtype=ms.float32), (2, 4))
assert (csr.shape, csr.dtype, csr.size, csr.ndim, csr.itemsize) == ((2, 4), ms.float32, 2, 2, 4)
close(csr.to_dense(), [[2, 0, 0, 0], [0, 1, 0, 0]])
close(csr.mv(Tensor([[1], [1], [1], [1]], dtype=ms.float32)), [[2], [1]])
close(csr.mm(Tensor([[1., 2.], [1, 2.], [1, 2.], [1., 2.]], dtype=ms.float32)), [[2, 4], [1, 2]])
close(csr.sum(1), [[2], [1]])
assert csr.astype(ms.float64).dtype == ms.float64
assert repr(csr).startswith("CSRTensor(shape=[2, 4], dtype=Float32, indptr=")
close(csr.to_coo().indices, [[0, 0], [1, 1]])
close((csr * Tensor([[10.0], [100.0]])).values, [20, 100])       # broadcast dense factor
close((-csr).values, [-2, -1])
summed = csr.add(CSRTensor(indptr, indices, Tensor([1, 2], dtype=ms.float32), (2, 4)),
                 Tensor(1, ms.float32), Tensor(1, ms.float32))
close(summed.values, [3, 3])
close((csr - csr).to_dense(), np.zeros((2, 4)))

coo = COOTensor(Tensor([[0, 1], [1, 2]], dtype=ms.int32), Tensor([1, 2], dtype=ms.float32), (3, 4))
assert (coo.shape, coo.dtype, coo.size) == ((3, 4), ms.float32, 2)
dense = np.zeros((3, 4), np.float32)
dense[0, 1], dense[1, 2] = 1, 2
close(coo.to_dense(), dense)
close(coo + Tensor(np.ones((3, 4), np.float32)), dense + 1)
close((coo * Tensor(np.full((3, 4), 3.0, np.float32))).values, [3, 6])
close(coo.to_csr().indptr, [0, 1, 2, 2])
# add with a threshold: the docs' example, coordinates in row-major order
a = COOTensor(Tensor([[0, 1], [1, 2]], dtype=ms.int64), Tensor([1, 2], dtype=ms.int32), (3, 4))
b = COOTensor(Tensor([[0, 0], [1, 1]], dtype=ms.int64), Tensor([3, 4], dtype=ms.int32), (3, 4))
out = a.add(b, Tensor(0, dtype=ms.int32))
close(out.indices, [[0, 0], [0, 1], [1, 1], [1, 2]])
close(out.values, [3, 1, 4, 2])
assert a.add(b, Tensor(3, dtype=ms.int32)).values.shape == (2,)     # |1| and |2| vanish
# duplicates: to_dense sums them, coalesce merges them
dup = COOTensor(Tensor([[0, 1], [0, 1], [1, 2]], dtype=ms.int64), Tensor([1., 5., 4.], ms.float32), (3, 3))
close(dup.to_dense()[0, 1], 6.0)
close(dup.coalesce().values, [6, 4])
y_indices, y_values, _ = ops.coalesce(Tensor([[0, 0, 1], [1, 1, 2]], dtype=ms.int64),
                                      Tensor([1, 5, 4], dtype=ms.float32), Tensor([3, 3], dtype=ms.int64))
close(y_indices, [[0, 1], [1, 2]])
close(y_values, [6, 4])

# conversions from dense
x = Tensor([[1, 0], [-5, 0]], ms.float32)
c = ops.dense_to_sparse_coo(x)
close(c.indices, [[0, 0], [1, 0]])
close(c.values, [1, -5])
close(x.to_csr().indptr, [0, 1, 2])
close(ops.csr_to_dense(x.to_csr()), x.asnumpy())
close(ops.csr_abs(x.to_csr()).values, [1, 5])
close(ops.coo_relu(c).values, [1, 0])
probabilities = ops.csr_softmax(CSRTensor(Tensor([0, 2, 3], ms.int32), Tensor([0, 3, 1], ms.int32),
                                          Tensor([1.0, 2.0, 7.0], ms.float32), (2, 4)), ms.float32)
close(probabilities.values, [np.exp(1) / (np.exp(1) + np.exp(2)), np.exp(2) / (np.exp(1) + np.exp(2)), 1.0])
close(ops.coo_concat((coo, coo), 1).to_dense(), np.concatenate([dense, dense], 1))

# gradients reach the stored values: d sum(A @ B) / d A[i, j] = sum_k B[j, k]
B = np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], np.float32)


def loss(values):
    return CSRTensor(indptr, indices, values, (2, 4)).mm(Tensor(B)).sum()


close(ms.grad(loss)(Tensor([2., 1.], ms.float32)), [B[0].sum(), B[1].sum()])
close(ms.grad(lambda v: (COOTensor(coo.indices, v, (3, 4)).to_dense() ** 2).sum())(Tensor([1., 2.])), [2, 4])

row = RowTensor(Tensor([0]), Tensor([[1, 2]], dtype=ms.float32), (3, 2))
close(row.values, [[1, 2]])
assert row.dense_shape == (3, 2)

# MindSpore's checks
raises(ValueError, CSRTensor, Tensor([0, 1], ms.int32), indices, Tensor([2, 1], ms.float32), (2, 4), match="indptr")
raises(TypeError, CSRTensor, Tensor([0., 1., 2.]), indices, Tensor([2, 1], ms.float32), (2, 4), match="int16, int32 or int64")
raises(ValueError, COOTensor, Tensor([[0, 1]], ms.int32), Tensor([1., 2.]), (3, 4), match="values.shape[0]")
raises(ValueError, lambda: coo + Tensor(np.ones((2, 2), np.float32)), match="same shape")
raises(TypeError, ops.csr_to_coo, coo, match="CSRTensor")
print("ok")
