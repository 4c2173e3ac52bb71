"""mindspore.dataset.transforms.c_transforms: MindSpore 1.x's module of the transforms operations (a view of
mindspore.dataset.transforms)."""
from mindspore._forwarding import forwarding as _forwarding, listing as _listing

__getattr__ = _forwarding("mindspore.dataset.transforms", __name__)
__dir__ = _listing("mindspore.dataset.transforms", globals())
