"""mindspore.dataset.engine: the package where MindSpore defines the datasets, samplers and
iterators (a view of
mindspore.dataset)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.dataset", __name__)
__dir__ = _listing("mindspore.dataset", globals())
