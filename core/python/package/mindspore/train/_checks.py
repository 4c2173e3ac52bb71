"""Argument checks of mindspore.train in MindSpore's wording (its Validator's messages)."""
import math
import numbers

import numpy as np

_REL = {"ge": (">=", lambda a, b: a >= b), "gt": (">", lambda a, b: a > b), "le": ("<=", lambda a, b: a <= b)}


def _prefix(arg_name, prim_name):
    who = "For '%s', the " % prim_name if prim_name else "The "
    return who + ("'%s'" % arg_name if arg_name else "input value")


def check_bool(value, arg_name=None, prim_name=None):
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, but got %s." % (_prefix(arg_name, prim_name), type(value).__name__))
    return value


def check_is_int(value, arg_name=None, prim_name=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be int, but got '%s'." % (_prefix(arg_name, prim_name), type(value).__name__))
    return int(value)


def _check_int_rel(value, bound, rel, arg_name, prim_name):
    info = _prefix(arg_name, prim_name)
    sign, fn = _REL[rel]
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s must be int and must %s %s, but got '%s' with type '%s'."
                        % (info, sign, bound, value, type(value).__name__))
    if not fn(value, bound):
        raise ValueError("%s must be int and must %s %s, but got '%s' with type '%s'."
                         % (info, sign, bound, value, type(value).__name__))
    return int(value)


def check_non_negative_int(value, arg_name=None, prim_name=None):
    return _check_int_rel(value, 0, "ge", arg_name, prim_name)


def check_positive_int(value, arg_name=None, prim_name=None):
    return _check_int_rel(value, 0, "gt", arg_name, prim_name)


def check_value_type(arg_name, value, valid_types, prim_name=None):
    if not isinstance(valid_types, (list, tuple)):
        valid_types = (valid_types,)
    ok = isinstance(value, tuple(valid_types))
    if ok and isinstance(value, bool) and bool not in valid_types:
        ok = False
    if not ok:
        names = [t.__name__ for t in valid_types]
        who = "For '%s', the" % prim_name if prim_name else "The"
        shown = ("one of '%s'" % names) if len(names) > 1 else "'%s'" % names[0]
        raise TypeError("%s type of '%s' should be %s, but got type '%s'."
                        % (who, arg_name, shown, type(value).__name__))
    return value


def check_float_range_open(value, lower, upper, arg_name=None, prim_name=None):
    """lower < value < upper for a float or an int."""
    info = _prefix(arg_name, prim_name)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s must be float, but got '%s'." % (info, type(value).__name__))
    if math.isnan(value) or not lower < value < upper:
        raise ValueError("%s must be in range of (%s, %s), but got %s with type '%s'."
                         % (info, lower, upper, value, type(value).__name__))
    return float(value)


def check_float_range_closed(value, lower, upper, arg_name=None, prim_name=None):
    """lower <= value <= upper for a float or an int."""
    info = _prefix(arg_name, prim_name)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s must be float, but got '%s'." % (info, type(value).__name__))
    if math.isnan(value) or not lower <= value <= upper:
        raise ValueError("%s must be in range of [%s, %s], but got %s with type '%s'."
                         % (info, lower, upper, value, type(value).__name__))
    return float(value)


def scalar(value):
    """A loss / monitor value as a Python float (tuple/list: its first Tensor; Tensor: its mean)."""
    from mindspore import Tensor
    if isinstance(value, (tuple, list)) and value and isinstance(value[0], Tensor):
        value = value[0]
    if isinstance(value, Tensor):
        value = float(np.mean(value.asnumpy()))
    return value


def _check_float_rel(value, bound, rel, arg_name, prim_name):
    info = _prefix(arg_name, prim_name)
    sign, fn = _REL[rel]
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError("%s must be float, but got '%s'." % (info, type(value).__name__))
    if math.isnan(value) or not fn(value, bound):
        raise ValueError("%s must be float and must %s %s, but got '%s' with type 'float'." % (info, sign, bound, value))
    return value


def check_positive_float(value, arg_name=None, prim_name=None):
    return _check_float_rel(value, 0.0, "gt", arg_name, prim_name)


def check_non_negative_float(value, arg_name=None, prim_name=None):
    return _check_float_rel(value, 0.0, "ge", arg_name, prim_name)


def check_non_positive_float(value, arg_name=None, prim_name=None):
    return _check_float_rel(value, 0.0, "le", arg_name, prim_name)
