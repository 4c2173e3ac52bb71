"""ops.div with MindSpore's rounding modes: None is true division (the core op), 'floor' rounds the
quotient down (FloorDiv) and 'trunc' towards zero (TruncateDiv); with two integer inputs the
rounded quotients keep the integer dtype."""
import mindspore.ops as ops
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_core_div = ops.div


@export(_F, force=True)
def div(input, other, *, rounding_mode=None):
    if rounding_mode is None:
        return _core_div(input, other)
    if rounding_mode == "floor":
        return ops.floor_div(input, other)
    if rounding_mode == "trunc":
        return ops.truncate_div(input, other)
    raise ValueError("For 'div', rounding_mode must be None, 'floor' or 'trunc', but got %r." % (rounding_mode,))
