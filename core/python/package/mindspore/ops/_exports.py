"""Names mindspore.ops exposes beside its C++ functions and primitives."""
import mindspore
import mindspore.ops as _ops

_ops.get_grad = mindspore.get_grad
