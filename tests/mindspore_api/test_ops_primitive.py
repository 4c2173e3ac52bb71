"""mindspore.ops.primitive: Primitive subclasses, prim_attr_register, PrimitiveWithInfer /
PrimitiveWithCheck hooks, constexpr."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import operations as P
from mindspore.ops.primitive import (Primitive, PrimitiveWithCheck, PrimitiveWithInfer, _primexpr, constexpr,
                                     prim_attr_register)

from _check import close, raises

assert Primitive is ops.Primitive is P.Primitive
assert ops.PrimitiveWithInfer is PrimitiveWithInfer and ops.prim_attr_register is prim_attr_register
assert ops.constexpr is constexpr and P.PrimitiveWithCheck is PrimitiveWithCheck


class Scale(Primitive):
    @prim_attr_register
    def __init__(self, factor, bias=0.0):
        self.extra = factor * 2

    def __call__(self, x):
        return x * self.factor + self.bias


s = Scale(3.0)
assert isinstance(s, ops.Primitive) and s.name == "Scale"
assert s.attrs == {"factor": 3.0, "bias": 0.0}, s.attrs
assert s.factor == 3.0 and s.extra == 6.0
close(s(Tensor(np.array([1.0, 2.0]))), [3.0, 6.0])
# the gradient flows through the ops the primitive calls
close(ms.grad(lambda x: s(x).sum())(Tensor(np.array([1.0, 2.0]))), [3.0, 3.0])

# add_prim_attr / del_prim_attr / set_prim_instance_name on Python and C++ primitives
assert s.add_prim_attr("mode", "fast") is s and s.attrs["mode"] == "fast" and s.mode == "fast"
s.del_prim_attr("mode")
assert "mode" not in s.attrs
relu = ops.ReLU()
relu.add_prim_attr("tag", 1)
assert relu.attrs["tag"] == 1
assert relu.set_prim_instance_name("r1") is relu and relu.instance_name == "r1"


class Doubler(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def infer_shape(self, x_shape):
        if len(x_shape) != 1:
            raise ValueError("For 'Doubler', the rank of 'x' must be 1, but got %d." % len(x_shape))
        return x_shape

    def infer_dtype(self, x_dtype):
        return x_dtype

    def __call__(self, x):
        return x * 2


d = Doubler()
assert d.name == "Doubler" and d.attrs["input_names"] == ["x"]
close(d(Tensor(np.array([1.0, 2.0]))), [2.0, 4.0])
raises(ValueError, d, Tensor(np.ones((2, 2))), match="rank of 'x' must be 1")
assert d.__infer__(Tensor(np.ones(3)))["shape"] == (3,)


class ConstOnly(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, value):
        pass

    def infer_value(self, x):
        return x + self.value


assert ConstOnly(2)(3) == 5


class Checked(PrimitiveWithCheck):
    @prim_attr_register
    def __init__(self):
        pass

    def check_dtype(self, x_dtype):
        if x_dtype != ms.float32:
            raise TypeError("For 'Checked', 'x' must be float32, but got %s." % x_dtype)

    def __call__(self, x):
        return x + 1


close(Checked()(Tensor(np.array([1.0], np.float32))), [2.0])
raises(TypeError, Checked(), Tensor(np.array([1.0])), match="must be float32")


@constexpr
def twice(n):
    return n * 2


assert twice(4) == 8


@constexpr(reuse_result=False)
def shape_len(shape):
    return len(shape)


assert shape_len((1, 2, 3)) == 3


@_primexpr
def first(shape):
    return shape[0]


assert first((5, 1)) == 5

# a Python primitive inside a graph-mode Cell is traced into the graph
ms.set_context(mode=ms.GRAPH_MODE)


class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Scale(2.0, 1.0)

    def construct(self, x):
        return self.scale(x).sum()


close(Net()(Tensor(np.array([1.0, 2.0]))), 8.0)
ms.set_context(mode=ms.PYNATIVE_MODE)
# Reduce primitives take the axes as an integer Tensor too; it gets no gradient.
rx = Tensor(np.array([[2, 2], [3, 3], [4, 4]], np.float32))
close(P.ReduceSum()(rx, Tensor(np.array([1], np.int64))), [4.0, 6.0, 8.0])
close(P.ReduceMean(keep_dims=True)(rx, Tensor(0, ms.int32)), [[3.0, 3.0]])
raises(TypeError, P.ReduceSum(), rx, Tensor(np.array([1.0], np.float32)),
       match="For 'ReduceSum', the 'axis' must be an int, a tuple of ints or a 0-D or 1-D integer Tensor")
dx, daxis = ops.GradOperation(get_all=True)(lambda a, b: P.ReduceSum()(a, b))(rx, Tensor(np.array([1], np.int64)))
close(dx, np.ones((3, 2)))
assert daxis.dtype == ms.int64 and np.array_equal(daxis.asnumpy(), [0])
print("ok")
