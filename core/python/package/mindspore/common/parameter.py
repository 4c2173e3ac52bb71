"""mindspore.common.parameter: Parameter and ParameterTuple."""
from mindspore import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]

# type(p) prints as MindSpore's does (<class 'mindspore.common.parameter.Parameter'>).
Parameter.__module__ = __name__
ParameterTuple.__module__ = __name__


def _clone(self, prefix, init="same"):
    """ParameterTuple.clone(prefix, init='same'): a ParameterTuple of new Parameters named
    prefix.<name>, each holding a copy of the original ('same') or init ('zeros', 'ones', an
    Initializer, a number) in the original's shape and dtype; custom optimizers keep their state
    this way."""
    import numpy as np

    from mindspore import Tensor
    from mindspore.common.initializer import Initializer, initializer

    if not isinstance(prefix, str) or not prefix:
        raise ValueError("For 'ParameterTuple.clone', the 'prefix' must be a non-empty str, but got %r." % (prefix,))
    clones = []
    for p in self:
        if isinstance(init, str) and init == "same":
            value = Tensor(np.array(p.asnumpy()), p.dtype)
        elif isinstance(init, (str, Initializer, int, float)):
            value = initializer(init, p.shape, p.dtype)
        else:
            raise TypeError("For 'ParameterTuple.clone', the 'init' must be 'same', an initializer name, an "
                            "Initializer or a number, but got %s." % type(init).__name__)
        clones.append(Parameter(value, name=prefix + "." + p.name, requires_grad=p.requires_grad))
    return ParameterTuple(clones)


if not hasattr(ParameterTuple, "clone"):
    ParameterTuple.clone = _clone


# Implicit conversion order of Parameter.set_data: a value of a lower kind is cast to the
# Parameter's dtype, a value of a higher kind is refused (MindSpore's mstype order).
_CONVERSION_ORDER = ("Bool", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64",
                     "BFloat16", "Float16", "Float32", "Float64", "Complex64", "Complex128")


def _set_data(self, data, slice_shape=False):
    """Parameter.set_data as MindSpore documents it: the shape stays (ValueError otherwise, unless
    slice_shape), a Python number or a Tensor of a lower dtype is cast to the Parameter's dtype
    and one of a higher dtype is a TypeError. Changing the dtype is Parameter.set_dtype's job."""
    from mindspore import Tensor

    if not isinstance(data, (Tensor, int, float)):
        raise TypeError("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` "
                        "(like `Tensor`). But with type %s." % type(data))
    if isinstance(data, (int, float)):
        if isinstance(data, float) and str(self.dtype).startswith(("Int", "UInt")):
            _refuse_dtype(self, "Float32")
        data = Tensor(data, self.dtype)
    if tuple(self.shape) != tuple(data.shape) and not slice_shape:
        raise ValueError("Can not change the shape of Parameter which has been initialized. Current shape is "
                         "%s, and incoming is %s." % (tuple(self.shape), tuple(data.shape)))
    if data.dtype != self.dtype:
        mine, theirs = str(self.dtype), str(data.dtype)
        if mine in _CONVERSION_ORDER and theirs in _CONVERSION_ORDER and \
                _CONVERSION_ORDER.index(mine) < _CONVERSION_ORDER.index(theirs):
            _refuse_dtype(self, theirs)
        data = data.astype(self.dtype)
    return Parameter._cpp_set_data(self, data, slice_shape)


def _refuse_dtype(param, incoming):
    raise TypeError("Incoming Parameter dtype can not be converted to current dtype implicitly. Current dtype is "
                    "%s, and incoming is %s. Use .set_dtype(xxx) to change the dtype." % (param.dtype, incoming))


if not hasattr(Parameter, "_cpp_set_data"):
    Parameter._cpp_set_data = Parameter.set_data
    Parameter.set_data = _set_data
