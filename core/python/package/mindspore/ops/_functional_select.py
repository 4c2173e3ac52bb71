"""ops.select's scalar operands: MindSpore's functional select turns an int into an int32 tensor
and a float into a float32 one, so the Tensor operand must have that dtype (MindSpore raises a
TypeError before selecting); the selection itself is the C++ select."""
import numbers

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U

_F = "mindspore.ops.functional"
_select = ops.select


def _check_scalar(scalar, tensor, scalar_name, tensor_name):
    if isinstance(scalar, bool) or not isinstance(tensor, Tensor):
        return
    if isinstance(scalar, numbers.Integral) and tensor.dtype != mstype.int32:
        raise TypeError("For functional operator[select], the input[%s] is int, then the input[%s] must be a "
                        "Tensor of int32." % (scalar_name, tensor_name))
    if isinstance(scalar, float) and tensor.dtype != mstype.float32:
        raise TypeError("For functional operator[select], the input[%s] is float, then the input[%s] must be a "
                        "Tensor of float32." % (scalar_name, tensor_name))


def select(cond, x, y):
    _check_scalar(x, y, "x", "y")
    _check_scalar(y, x, "y", "x")
    return _select(cond, x, y)


select.__doc__ = _select.__doc__
U.export(_F, force=True)(select)
