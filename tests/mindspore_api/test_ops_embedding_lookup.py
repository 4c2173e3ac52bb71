"""P.EmbeddingLookup: rows of the table at indices - offset, zeros for an index outside the
table after the offset, any index shape, and a gradient that reaches only the rows looked up."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

from _check import close, raises

table = np.arange(12, dtype=np.float32).reshape(4, 3)
table[0, 0] = np.nan   # a zero row must not come from multiplying a looked-up row by 0
idx = np.array([[5, 2], [9, 5], [4, 7]], np.int32)
for offset in (0, 3, 4):
    out = P.EmbeddingLookup()(Tensor(table), Tensor(idx), offset)
    shifted = idx - offset
    inside = (shifted >= 0) & (shifted < 4)
    want = np.where(inside[..., None], table[np.clip(shifted, 0, 3)], 0)
    assert out.shape == (3, 2, 3)
    close(out, want)

grad = ops.grad(lambda t: P.EmbeddingLookup()(t, Tensor(np.array([1, 1, 8], np.int64)), 0).sum())(
    Tensor(np.ones((4, 3), np.float32)))
close(grad, np.array([[0, 0, 0], [2, 2, 2], [0, 0, 0], [0, 0, 0]], np.float32))
assert ops.EmbeddingLookup is P.EmbeddingLookup
raises(TypeError, P.EmbeddingLookup(), Tensor(table), Tensor(idx.astype(np.float32)), 0, match="input_indices")
raises(TypeError, P.EmbeddingLookup(), Tensor(table), Tensor(idx), 1.5, match="offset")
