"""mindspore.mutable / mindspore.common.mutable(input_data, dynamic_len=False).

MindSpore marks a constant input (scalar, tuple, list, dict, Tensor) as a variable for graph
compilation. In PyNative mode it changes nothing, so gradstep returns the data itself: ints,
floats, tuples, lists and dicts come back as subclasses carrying MindSpore's markers
`__ms_mutable__` and `__ms_dynamic_len__` (equal to, and usable as, the originals); a Tensor
comes back as it is (gradstep's Tensor takes no new attributes).
"""
import mindspore
import mindspore.common as _common
from mindspore import Tensor

__all__ = ["mutable"]


class _Int(int):
    pass


class _Float(float):
    pass


class _Tuple(tuple):
    pass


class _List(list):
    pass


class _Dict(dict):
    pass


def _valid(value):
    if isinstance(value, (tuple, list)):
        return all(_valid(v) for v in value)
    if isinstance(value, dict):
        return all(_valid(v) for v in value.values())
    return isinstance(value, (Tensor, int, float)) and not isinstance(value, bool)


def mutable(input_data, dynamic_len=False):
    """input_data marked mutable (see the module docstring)."""
    if not _valid(input_data):
        raise TypeError("For 'mutable', the 'input_data' should be one of (int, float, bool, Tensor, tuple, list, "
                        "dict) or their nested structures, but got %s." % (input_data,))
    if not isinstance(dynamic_len, bool):
        raise TypeError("For 'mutable', the 'dynamic_len' should be bool, but got %s." % type(dynamic_len).__name__)
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError("For mutable, when the variable_len is True, the first input should be list or tuple, "
                        "but got %s" % (input_data,))
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, int):
        out = _Int(input_data)
    elif isinstance(input_data, float):
        out = _Float(input_data)
    elif isinstance(input_data, list):
        out = _List(input_data)
    elif isinstance(input_data, tuple):
        out = _Tuple(input_data)
    else:
        out = _Dict(input_data)
    out.__ms_mutable__ = True
    out.__ms_dynamic_len__ = dynamic_len
    return out


mindspore.mutable = mutable
_common.mutable = mutable
