"""Every module path MindSpore scripts import from reaches the same objects."""
import importlib

import mindspore
import mindspore.common.api
import mindspore.ops.composite as C
import mindspore.ops.operations.nn_ops
from mindspore import Parameter, Tensor, log as logger
from mindspore._extends import cell_attr_register
from mindspore.common.api import jit, jit_class
from mindspore.common.parameter import Parameter as P2, ParameterTuple
from mindspore.common.tensor import Tensor as T2
from mindspore.ops import composite, functional as F, operations as P
from mindspore.ops.composite.base import GradOperation as G2

from _check import raises

assert T2 is Tensor and P2 is Parameter and ParameterTuple is mindspore.ParameterTuple
assert jit is mindspore.jit and mindspore.common.jit is jit
assert composite is C and C.GradOperation is mindspore.ops.GradOperation is G2
assert mindspore.ops.operations.nn_ops.ReLU is P.ReLU is mindspore.ops.ReLU
assert F.get_grad is mindspore.get_grad is mindspore.ops.get_grad
for path in ["mindspore.nn.layer.conv", "mindspore.nn.loss", "mindspore.nn.optim",
             "mindspore.nn.wrap.cell_wrapper", "mindspore.nn.cell", "mindspore.ops.function.grad.grad_func",
             "mindspore.common.seed", "mindspore.ops.operations.math_ops"]:
    importlib.import_module(path)
from mindspore.nn.optim import Momentum  # noqa: E402
from mindspore.nn.wrap.cell_wrapper import WithLossCell  # noqa: E402

assert Momentum is mindspore.nn.Momentum and WithLossCell is mindspore.nn.WithLossCell
try:
    from mindspore.nn.optim import NoSuchOptimizer  # noqa: F401
    raise AssertionError("imported a name that does not exist")
except ImportError as e:
    assert "NoSuchOptimizer" in str(e)

# The embedded modules' frames are gradstep's, never the user's file.
assert C.__file__.startswith("<gradstep>/")


@jit_class
class Holder:
    pass


assert Holder.__ms_class__
raises(TypeError, jit_class, 3, match="jit_class can only be used for class type")


class Net(mindspore.nn.Cell):
    @cell_attr_register
    def __init__(self, width, depth=2):
        super().__init__()
        self.width = width


assert Net(4).cell_init_args == "Net{'width': 4, 'depth': 2}"

# HyperMap and MultitypeFuncGraph
add = C.MultitypeFuncGraph("add")


@add.register("Number", "Number")
def _add_numbers(x, y):
    return x + y


@add.register("Tensor", "Tensor")
def _add_tensors(x, y):
    return x * 10 + y


assert C.HyperMap(add)((1, (2, 3)), (10, (20, 30))) == (11, (22, 33))
assert C.HyperMap()(add, [1, 2], [3, 4]) == [4, 6]
assert float(add(Tensor(1.0), Tensor(2.0)).asnumpy()) == 12.0
raises(TypeError, add, "a", 1, match="MultitypeFuncGraph")
raises(ValueError, C.HyperMap(add), (1, 2), (1,), match="length")
assert C.Map(lambda a: a * 2)((1, (2,))) == (2, (2, 2))

assert logger.get_level() == "2"
logger.warning("a warning from %s", "the test")
