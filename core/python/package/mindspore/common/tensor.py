"""mindspore.common.tensor: the Tensor class."""
from mindspore import Tensor

__all__ = ["Tensor"]
