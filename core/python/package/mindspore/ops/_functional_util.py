"""Helpers shared by the Python halves of mindspore.ops (_functional_*.py, _primitives_*.py,
mindspore.numpy): argument checks with MindSpore's wording, constants and registration of new
names on the C++ modules (a name the C++ side already binds is never replaced)."""
import numbers

import numpy as np

import mindspore
import mindspore.ops as _ops
from mindspore import Tensor
from mindspore.common import dtype as mstype

_FLOATS = (mstype.float32, mstype.float64)
# Every float dtype: _FLOATS are the ones NumPy-side helpers compute in; the 16-bit floats are
# floats too wherever a float value (NaN, inf, a fraction) makes a difference.
_ALL_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)
_INTS = (mstype.int32, mstype.int64)


def export(*modules, force=False):
    """Decorator: sets the function (or class) as a name of mindspore.ops and of the given
    module paths when they do not bind it yet."""

    def deco(obj):
        name = obj.__name__
        for path in ("mindspore.ops",) + modules:
            module = _module(path)
            if force or not hasattr(module, name):
                setattr(module, name, obj)
        return obj

    return deco


def export_as(name, obj, *modules):
    for path in ("mindspore.ops",) + modules:
        module = _module(path)
        if not hasattr(module, name):
            setattr(module, name, obj)


def _module(path):
    import importlib
    return importlib.import_module(path)


def is_tensor(x):
    return isinstance(x, Tensor)


def check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise TypeError("For '%s', the '%s' must be a Tensor, but got %s." % (op, name, type(x).__name__))
    return x


def check_int(op, name, value, minimum=None):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError("For '%s', the '%s' must be an int, but got %s." % (op, name, type(value).__name__))
    if minimum is not None and value < minimum:
        raise ValueError("For '%s', the '%s' must be greater than or equal to %d, but got %d."
                         % (op, name, minimum, value))
    return int(value)


def check_number(op, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError("For '%s', the '%s' must be a number, but got %s." % (op, name, type(value).__name__))
    return value


def check_bool(op, name, value):
    if not isinstance(value, bool):
        raise TypeError("For '%s', the '%s' must be a bool, but got %s." % (op, name, type(value).__name__))
    return value


def check_str(op, name, value, allowed):
    if not isinstance(value, str):
        raise TypeError("For '%s', the '%s' must be a str, but got %s." % (op, name, type(value).__name__))
    if value not in allowed:
        raise ValueError("For '%s', the '%s' must be one of %s, but got '%s'." % (op, name, list(allowed), value))
    return value


def check_reduction(op, reduction):
    return check_str(op, "reduction", reduction, ("none", "mean", "sum"))


def norm_axis(op, axis, ndim, name="axis"):
    """A single axis in [-ndim, ndim) made non-negative (a 0-D tensor has one valid axis)."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError("For '%s', the '%s' must be an int, but got %s." % (op, name, type(axis).__name__))
    rank = max(ndim, 1)
    if axis < -rank or axis >= rank:
        raise ValueError("For '%s', the '%s' must be in range [%d, %d), but got %d."
                         % (op, name, -rank, rank, axis))
    return int(axis) % rank


def norm_axes(op, axis, ndim, name="axis"):
    """None -> every axis; an int or a tuple/list of ints -> sorted non-negative tuple."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(norm_axis(op, a, ndim, name) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("For '%s', the '%s' has duplicate elements: %s." % (op, name, tuple(axis)))
        return tuple(sorted(axes))
    return (norm_axis(op, axis, ndim, name),)


def float_dtype(x):
    """x's dtype when it is a float type, else float32."""
    return x.dtype if x.dtype in _FLOATS else mstype.float32


def as_tensor(x, like=None, dtype=None):
    """A Python number / array as a Tensor, of `like`'s dtype when given."""
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    if dtype is None and like is not None:
        dtype = like.dtype
    if dtype is None:
        return Tensor(x)
    return Tensor(np.asarray(x, dtype=nptype(dtype)), dtype)


def const(array, dtype):
    """A constant tensor of a NumPy value (shapes and index bookkeeping)."""
    return Tensor(np.ascontiguousarray(np.asarray(array, dtype=nptype(dtype))), dtype)


def to_float(x):
    if x.dtype in _FLOATS:
        return x
    return x.astype(mstype.float32)


def move_axis_last(x, axis):
    """x with `axis` moved to the end, and the permutation that undoes it."""
    nd = x.ndim
    if axis == nd - 1:
        return x, None
    perm = tuple(i for i in range(nd) if i != axis) + (axis,)
    inv = tuple(int(i) for i in np.argsort(perm))
    return _ops.transpose(x, perm), inv


def restore_axis(x, inv):
    return x if inv is None else _ops.transpose(x, inv)


def shape_tuple(op, shape, name="shape"):
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in np.asarray(shape.asnumpy()).reshape(-1))
    if not isinstance(shape, (tuple, list)):
        raise TypeError("For '%s', the '%s' must be a tuple or list of ints, but got %s."
                        % (op, name, type(shape).__name__))
    out = []
    for v in shape:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError("For '%s', the element of '%s' must be int, but got %s."
                            % (op, name, type(v).__name__))
        out.append(int(v))
    return tuple(out)


def shape_deciding_values(op, x):
    """The NumPy values of x that decide the shape of op's output (Unique, MaskedSelect, NonZero).
    In a graph-mode trace they are not known yet: the body being compiled then runs in Python."""
    if isinstance(x, Tensor):
        mindspore._value_dependent_shape(op, x)
    return numpy_of(x)


def numpy_of(x):
    """The value of a tensor or Python object as a NumPy array (index bookkeeping only)."""
    if isinstance(x, Tensor):
        return x.asnumpy()
    return np.asarray(x)


def nptype(dtype):
    if dtype == mstype.bool_:
        return np.bool_
    return mindspore.dtype_to_nptype(dtype)


def dtype_of_numpy(array):
    """The mindspore dtype gradstep has for a NumPy array's dtype."""
    kind = np.asarray(array).dtype
    if kind == np.bool_:
        return mstype.bool_
    if kind == np.float64:
        return mstype.float64
    if kind == np.int32:
        return mstype.int32
    if np.issubdtype(kind, np.integer):
        return mstype.int64
    return mstype.float32


# Note [Parameters mapped by vmap]: MindSpore's vmap updates a Parameter mapped along an axis in
# place, each batch element writing its own slice (an optimizer primitive under vmap updates every
# slice). gradstep's vmap runs fn once per element on Tensor slices (they keep the gradient path to
# the Parameter); while fn runs, each slice of a Parameter is registered here, writes to it are
# collected instead of applied, and after the loop vmap writes the stacked slices back into the
# Parameter at once (ops/_transforms_vmap.py).
class ParameterSlice:
    """One batch element's slice of a Parameter mapped by vmap, and what fn wrote to it."""

    def __init__(self, tensor):
        self.tensor = tensor
        self.written = None


_vmap_slices = {}


def vmap_slice(x):
    """The ParameterSlice that x is, or None."""
    entry = _vmap_slices.get(id(x))
    return entry if entry is not None and entry.tensor is x else None


def is_parameter(x):
    """A Parameter, or a vmap slice of one (Note [Parameters mapped by vmap])."""
    return isinstance(x, mindspore.Parameter) or vmap_slice(x) is not None


def check_parameter(op, name, x):
    """MindSpore's TypeError for a state input (var, accum, ...) that is not a Parameter."""
    if not is_parameter(x):
        raise TypeError("For '%s', the '%s' must be a Parameter, but got %s." % (op, name, type(x).__name__))
    return x


def write_parameter(op, parameter, value):
    """parameter.set_data(value) without gradient; while a graph-mode function compiles, a write
    of the graph (later reads see value, the run writes it back: Note [Side effects in compiled
    code] in gradstep's jit_state.cpp). A vmap slice of a Parameter keeps the value for vmap to
    write back (Note [Parameters mapped by vmap])."""
    value = _ops.stop_gradient(value)
    sliced = vmap_slice(parameter)
    if sliced is not None:
        if value.dtype != parameter.dtype:
            value = value.astype(parameter.dtype)
        sliced.written = value
        return value
    if mindspore._jit_tracing():
        if value.dtype != parameter.dtype:
            value = value.astype(parameter.dtype)
        mindspore._jit_write_parameter(parameter, value)
        return parameter
    try:
        value.asnumpy()
    except Exception:  # a value known only when the compiled graph runs
        raise RuntimeError("For '%s', writing the Parameter '%s' inside a graph-mode (compiled) function is "
                           "not supported by gradstep yet: run the function in PyNative mode "
                           "(set_context(mode=PYNATIVE_MODE), no @jit) or update the Parameter outside it."
                           % (op, getattr(parameter, "name", "?"))) from None
    if value.dtype != parameter.dtype:
        value = value.astype(parameter.dtype)
    parameter.set_data(value)
    return parameter
