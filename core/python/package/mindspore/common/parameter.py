"""mindspore.common.parameter: Parameter and ParameterTuple."""
from mindspore import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]

# type(p) prints as MindSpore's does (<class 'mindspore.common.parameter.Parameter'>).
Parameter.__module__ = __name__
ParameterTuple.__module__ = __name__
