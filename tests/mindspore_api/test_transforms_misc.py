"""mutable, _no_grad (context manager and decorator), HookBackward."""
import numpy as np

import mindspore
import mindspore.nn as nn
import mindspore.ops.operations as P
from mindspore import Parameter, Tensor, _no_grad, mutable, ops
from mindspore.common import mutable as mutable2

from _check import close, raises

assert mutable2 is mutable is mindspore.mutable
assert mindspore.common.api._no_grad is _no_grad

# mutable returns the data, with MindSpore's markers where the type takes them
m = mutable((Tensor(np.ones(2)), Tensor(np.zeros(2))))
assert isinstance(m, tuple) and len(m) == 2 and m.__ms_mutable__ and m.__ms_dynamic_len__ is False
assert mutable([1, 2], dynamic_len=True).__ms_dynamic_len__ is True
assert mutable(3) == 3 and mutable(2.5) + 1 == 3.5 and mutable({"a": 1})["a"] == 1
t = Tensor(np.ones(3))
assert mutable(t) is t
raises(TypeError, mutable, "text", match="For 'mutable', the 'input_data' should be one of")
raises(TypeError, mutable, True, match="For 'mutable'")
raises(TypeError, mutable, 1, dynamic_len=True, match="should be list or tuple")


# _no_grad as a context manager: what the block computes is a constant for gradients
class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([5.0])), name="w")
        self.b = Parameter(Tensor(np.array([5.0])), name="b")

    def construct(self, x):
        y = self.w * x + self.b
        with _no_grad():
            m = y * self.w
        return m * y


# z = m * y with m constant: dz/dx = m * w = (w x + b) w * w = 375 at x = 2
close(ops.grad(Network())(Tensor(np.array([2.0]))), [375.])
# the forward value is unchanged: (w x + b)^2 w = 1125
close(Network()(Tensor(np.array([2.0]))), [1125.])


# _no_grad as a decorator
class Inner(nn.Cell):
    @_no_grad()
    def construct(self, x):
        y = x * x
        return y + y


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def construct(self, x):
        y = x * x
        return y + self.inner(y)


close(Outer()(Tensor(np.array([2.0]))), [36.])
close(ops.grad(Outer())(Tensor(np.array([2.0]))), [4.])


@_no_grad()
def square(v):
    return v * v


close(ops.grad(lambda v: square(v) + 3 * v)(Tensor(np.array([1.5, 2.0]))), [3., 3.])

# HookBackward: identity forward; the hook sees the gradient (a tuple) and may replace it
seen = []


def record(grad):
    seen.append(grad)


hook = P.HookBackward(record)
assert ops.HookBackward is P.HookBackward


def f(x, y):
    z = hook(x * y)
    return z * y


gx, gy = ops.grad(f, (0, 1))(Tensor(np.array(1.0)), Tensor(np.array(2.0)))
assert len(seen) == 1 and isinstance(seen[0], tuple) and len(seen[0]) == 1
close(seen[0][0], 2.0)
close(gx, 4.0)
close(gy, 4.0)

double = P.HookBackward(lambda g: (g[0] * 2,))


def f2(x):
    return double(x * 3) ** 2


# d/dx (3x)^2 = 18 x; the hook doubles the gradient at 3x: 36 x
close(ops.grad(f2)(Tensor(np.array([1.0, 2.0]))), [36., 72.])
close(f2(Tensor(np.array([1.0]))), [9.])
raises(TypeError, P.HookBackward, 3, match="must be python function")
print("ok")

# A gradient function inside a no-grad region raises MindSpore's error, and the region closes
# even when its block raises.
def inside_no_grad():
    with _no_grad():
        ops.grad(lambda v: v * v)(Tensor(np.array([1.0])))


raises(RuntimeError, inside_no_grad, match="In no_grad context, you can not calculate gradient")


def raising_block():
    with _no_grad():
        raise KeyError("inside")


raises(KeyError, raising_block)
close(ops.grad(lambda v: v * v)(Tensor(np.array([3.0]))), [6.])
