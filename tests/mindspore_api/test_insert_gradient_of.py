"""ops.InsertGradientOf (ops/_transforms_insert_gradient.py): the identity forward; in backward
the gradient goes through f (MindSpore's clip example, a zeroing f, a number from f, a method
that records the gradient in a Parameter)."""
import numpy as np

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, jit, nn, ops
from mindspore.ops import operations as P

from _check import close, raises

lo = Tensor(np.array([0.2], np.float32))
hi = Tensor(np.array([1.0], np.float32))


def clip_gradient(dx):
    ret = dx
    if ret > hi:
        ret = hi
    if ret < lo:
        ret = lo
    return ret


clip = ops.InsertGradientOf(clip_gradient)


def clip_test(x, y):
    return clip(x) * clip(y)


x, y = Tensor(np.array([1.1], np.float32)), Tensor(np.array([0.1], np.float32))
close(jit(clip_test)(x, y), [0.11])
gx, gy = ops.GradOperation(get_all=True)(clip_test)(x, y)
close(gx, [0.2])  # d/dx = y = 0.1, clipped up to 0.2
close(gy, [1.0])  # d/dy = x = 1.1, clipped down to 1.0

# f's result replaces the gradient; a number becomes a Tensor like the gradient.
zero = P.InsertGradientOf(lambda dx: ops.zeros_like(dx))
a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
close(ops.grad(lambda t: (zero(t) * t).sum())(a), a.asnumpy())
half = ops.InsertGradientOf(lambda dx: 0.5)
g = ops.grad(lambda t: (half(t) * 3.0).sum())(a)
assert g.dtype == ms.float32
close(g, np.full((2, 2), 0.5, np.float32))


# A bound method that accumulates the gradient into a Parameter.
class Mul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones([2, 2], np.float32)), name="w")
        self.seen = Parameter(Tensor(np.zeros([2, 2], np.float32)), name="seen", requires_grad=False)
        self.record = ops.InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout):
        ops.assign(self.seen, self.seen + dout)
        return dout

    def construct(self, u, v):
        return self.record(u * self.w) * v


net = Mul()
u, v = Tensor(np.ones([2, 2], np.float32)), Tensor(np.full([2, 2], 3.0, np.float32))
(gw,) = ops.GradOperation(get_by_list=True)(net, ParameterTuple(net.trainable_params()))(u, v)
close(gw, np.full((2, 2), 3.0, np.float32))
close(net.seen, np.full((2, 2), 3.0, np.float32))
raises(TypeError, ops.InsertGradientOf, 3, match="InsertGradientOf")
assert ops.InsertGradientOf(clip_gradient)(2.5) == 2.5
