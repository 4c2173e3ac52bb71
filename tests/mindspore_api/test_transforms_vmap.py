"""vmap: in_axes / out_axes rules, nesting, Cells, gradients through it, errors."""
import numpy as np

import mindspore
import mindspore.nn as nn
from mindspore import Parameter, Tensor, ops
from mindspore.ops import functional as F

from _check import close, raises

assert F.vmap is ops.vmap is mindspore.vmap
vmap = ops.vmap

a = np.arange(24.).reshape(2, 3, 4)
b = np.arange(12.).reshape(3, 4) / 10

# int in_axes applies to every argument; out_axes places the batch axis
close(vmap(lambda x, y: x * y, in_axes=1)(Tensor(a), Tensor(a)), np.moveaxis(a * a, 1, 0))
close(vmap(lambda x: x.sum(), in_axes=2)(Tensor(a)), a.sum(axis=(0, 1)))
close(vmap(lambda x, y: x + y, in_axes=(0, None))(Tensor(a), Tensor(b)), a + b)
close(vmap(lambda x: x * 2, in_axes=-1, out_axes=-1)(Tensor(a)), a * 2)
close(vmap(lambda x: ops.matmul(x, Tensor(b.T)), in_axes=1, out_axes=1)(Tensor(a)),
      np.einsum("ijk,lk->ijl", a, b))
# nested vmap: (2, 3, 4) mapped twice
close(vmap(vmap(lambda x: x.sum(), in_axes=0), in_axes=0)(Tensor(a)), a.sum(axis=2))


# nested in_axes / out_axes, scalars broadcast, unbatched outputs with None kept as they are
class AddNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.t = Tensor(np.array([5., 6.]))
        self.p = Parameter(Tensor(np.array([5., 6.])), name="p")

    def construct(self, x, y):
        return ((1, 2), 3), self.t + 1, ops.stack((self.p, self.p))


xh = Tensor(np.array([[1., 2., 3.], [4., 5., 6.]]))
((r1, r2), r3), r4, r5 = vmap(AddNet(), in_axes=(1, [-1, None]), out_axes=((0, None), 0, None))(xh, (xh, 1))
close(r1, [1, 1, 1])
close(r2, [2, 2, 2])
assert r3 == 3
close(r4, [[6, 7]] * 3)
close(r5, [[5, 6], [5, 6]])

# tuple arguments with one axis for all their elements; tuple outputs
s, d = vmap(lambda p: (p[0] + p[1], p[0] - p[1]), in_axes=((0, 1),))((Tensor(b), Tensor(b.T)))
close(s, b + b)
close(d, np.zeros((3, 4)))

# gradients flow through vmap, and vmap of grad equals grad of vmap
def f(x, y):
    return ops.sin(x + 2 * y).sum()


xs = np.array([[1., 2., 3.], [2., 3., 4.]])
ys = np.array([[2., 3., 4.], [3., 4., 5.]])
expect = np.cos(xs + 2 * ys)
gx, gy = vmap(lambda x, y: mindspore.grad(f, (0, 1))(x, y), 1, 1)(Tensor(xs), Tensor(ys))
close(gx, expect)
close(gy, 2 * expect)
gx, gy = mindspore.grad(lambda x, y: vmap(f, 1, 0)(x, y).sum(), (0, 1))(Tensor(xs), Tensor(ys))
close(gx, expect)
close(gy, 2 * expect)

# a Cell as fn: Dense over a batch of batches equals Dense over the flattened batch
dense = nn.Dense(4, 2)
close(vmap(dense)(Tensor(a.astype(np.float32))),
      dense(Tensor(a.reshape(6, 4).astype(np.float32))).asnumpy().reshape(2, 3, 2), rtol=1e-5, atol=1e-5)

# errors
raises(RuntimeError, vmap, lambda x: x, in_axes=None, match="can not be all None")
raises(RuntimeError, vmap, lambda x: x, in_axes=(0, None), out_axes=None, match="can not be all None")
raises(RuntimeError, vmap, lambda x: x, in_axes=0.5, match="in_axes")
raises(RuntimeError, vmap(lambda x, y: x, in_axes=(0,)), Tensor(a), Tensor(a), match="These two numbers should be equal")
raises(ValueError, vmap(lambda x, y: x + 0, in_axes=(0, 1)), Tensor(a), Tensor(a), match="axis_size")
raises(ValueError, vmap(lambda x: x, in_axes=3), Tensor(a), match="out of bounds")
raises(RuntimeError, vmap(lambda x: x, in_axes=0), 3, match="the source axis is not `None`")
raises(RuntimeError, vmap(lambda x: (x, x * 2), in_axes=0, out_axes=(0, None)), Tensor(a),
       match="source is not None and dst is None")
raises(RuntimeError, vmap(lambda x: (x, x), out_axes=(0, 0, 0)), Tensor(a), match="out_axes")
raises(TypeError, vmap, 3, match="'fn' must be")
print("ok")
