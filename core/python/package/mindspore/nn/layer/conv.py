"""mindspore.nn.layer.conv: convolution Cells (a view of mindspore.nn)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.nn", __name__)
__dir__ = _listing("mindspore.nn", globals())
