"""mindspore.dataset.vision.transforms: the vision operations (a view of mindspore.dataset.vision)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.dataset.vision", __name__)
__dir__ = _listing("mindspore.dataset.vision", globals())
