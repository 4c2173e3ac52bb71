"""mindspore.common.tensor: the Tensor class."""
from mindspore import Tensor

__all__ = ["Tensor"]

# type(t) prints as MindSpore's does (<class 'mindspore.common.tensor.Tensor'>); pickle finds the
# class here too.
Tensor.__module__ = __name__
