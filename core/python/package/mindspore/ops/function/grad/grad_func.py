"""mindspore.ops.function.grad.grad_func: grad, value_and_grad, get_grad, vjp, jvp (a view of mindspore.ops)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.ops", __name__)
__dir__ = _listing("mindspore.ops", globals())
