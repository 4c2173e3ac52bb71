"""mindspore.ops.operations.control_ops: control primitives (a view of mindspore.ops.operations)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.ops.operations", __name__)
__dir__ = _listing("mindspore.ops.operations", globals())
