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
