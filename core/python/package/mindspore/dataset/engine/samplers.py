"""mindspore.dataset.engine.samplers: MindSpore's module of the samplers (a view of
mindspore.dataset)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.dataset", __name__)
__dir__ = _listing("mindspore.dataset", globals())
