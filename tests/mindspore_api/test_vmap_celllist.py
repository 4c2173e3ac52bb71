"""vmap over a CellList (model ensembling): cell i runs on batch element i; with in_axes all None
every cell runs on the same arguments and the batch is the cells (ops/_transforms_vmap.py)."""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

from _check import close, raises


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3,), k, np.float32)), name="w%d" % k)

    def construct(self, x, y):
        return x * self.w + y


cells = nn.CellList([Scale(1.0), Scale(2.0), Scale(3.0)])
x_np = np.array([1.0, -2.0, 0.5], np.float32)
y_np = np.array([0.1, 0.2, 0.3], np.float32)
x, y = Tensor(x_np), Tensor(y_np)

# Shared arguments: out[i] = cell_i(x, y).
out = ops.vmap(cells, in_axes=(None, None), out_axes=0)(x, y)
close(out, np.stack([x_np * k + y_np for k in (1.0, 2.0, 3.0)]))
out = ops.vmap(cells, in_axes=None, out_axes=1)(x, y)
close(out, np.stack([x_np * k + y_np for k in (1.0, 2.0, 3.0)], axis=1))

# Gradients flow to the shared input and to every cell's Parameter.
g = ops.grad(lambda a: ops.vmap(cells, in_axes=(None, None))(a, y).sum())(x)
close(g, np.full((3,), 6.0, np.float32))
params = cells.trainable_params()
gw = ops.grad(lambda a: ops.vmap(cells, in_axes=(None, None))(a, y).sum(), None, params)(x)
for grad_w in gw:
    close(grad_w, x_np)

# A mapped argument: cell i sees row i.
xs = np.arange(9, dtype=np.float32).reshape(3, 3)
out = ops.vmap(cells, in_axes=(0, None))(Tensor(xs), y)
close(out, np.stack([xs[i] * k + y_np for i, k in enumerate((1.0, 2.0, 3.0))]))
raises(ValueError, ops.vmap(cells, in_axes=(0, None)), Tensor(np.ones((2, 3), np.float32)), y,
       match="CellList")
# A function still needs one mapped argument.
raises(RuntimeError, ops.vmap, lambda a: a, in_axes=None, match="can not be all None")
