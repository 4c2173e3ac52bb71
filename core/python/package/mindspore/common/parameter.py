"""mindspore.common.parameter: Parameter and ParameterTuple."""
from mindspore import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
