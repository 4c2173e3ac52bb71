"""mindspore.ops.composite (imported as C): GradOperation, MultitypeFuncGraph, HyperMap, Map and
the composite functions MindSpore keeps here; other names are those of mindspore.ops."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing
from mindspore.ops.composite.base import GradOperation, HyperMap, Map, MultitypeFuncGraph

__getattr__ = _forwarding("mindspore.ops", __name__)
__dir__ = _listing("mindspore.ops", globals())
