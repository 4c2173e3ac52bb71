"""mindspore.dataset.text: text processing for the data pipeline (tokenizers, Vocab and Lookup,
n-grams, string conversions); see transforms.py and utils.py."""
from mindspore.dataset.text.transforms import *  # noqa: F401,F403
from mindspore.dataset.text.transforms import __all__ as _transforms_all
from mindspore.dataset.text.utils import *  # noqa: F401,F403
from mindspore.dataset.text.utils import __all__ as _utils_all

__all__ = list(_transforms_all) + list(_utils_all)
