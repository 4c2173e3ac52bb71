"""mindspore.numpy: NumPy-style functions over mindspore.ops, returning mindspore Tensors (so they
are recorded and differentiable like any op). As in MindSpore, array creation from Python lists,
tuples and numbers turns 64-bit types into 32-bit ones unless a dtype is given; a NumPy array keeps
its dtype."""
import builtins as _builtins
import math as _math

import numpy as _np

import mindspore.ops as _ops
import mindspore.ops._functional_array  # noqa: F401
import mindspore.ops._functional_math  # noqa: F401
import mindspore.ops._functional_nn  # noqa: F401
from mindspore import Tensor as _Tensor
from mindspore.common import dtype as _mstype
from mindspore.ops import _functional_util as _U

bool_ = _mstype.bool_
int32 = _mstype.int32
int64 = _mstype.int64
float32 = _mstype.float32
float64 = _mstype.float64
for _name in ("float16", "int8", "int16", "uint8", "uint16", "uint32", "uint64", "bfloat16"):
    if hasattr(_mstype, _name):
        globals()[_name] = getattr(_mstype, _name)
int_ = int32
float_ = float32
pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
PINF = inf
NINF = -inf
newaxis = None


def _to_dtype(dtype):
    if dtype is None or isinstance(dtype, _mstype.Type):
        return dtype
    kind = _np.dtype(dtype)
    if kind == _np.bool_:
        return bool_
    if kind == _np.float64:
        return float64
    if kind.kind == "f":
        return float32
    if kind == _np.int64:
        return int64
    return int32


def _tensor(x):
    return x if isinstance(x, _Tensor) else array(x)


def _axis_arg(axis):
    return None if axis is None else (tuple(axis) if isinstance(axis, list) else axis)


# ---------------------------------------------------------------- creation
def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor of obj (nested lists / tuples, NumPy array, number or Tensor)."""
    dtype = _to_dtype(dtype)
    if isinstance(obj, _Tensor):
        out = obj.astype(dtype) if dtype is not None and dtype != obj.dtype else (obj.copy() if copy else obj)
    elif isinstance(obj, (list, tuple)) and _builtins.any(isinstance(v, _Tensor) for v in obj):
        out = _ops.stack(tuple(_tensor(v) for v in obj))
        if dtype is not None:
            out = out.astype(dtype)
    else:
        from_numpy = isinstance(obj, _np.ndarray)
        a = _np.asarray(obj)
        if dtype is None and from_numpy and a.dtype in (_np.float64, _np.float32, _np.int64, _np.int32, _np.bool_):
            dtype = _to_dtype(a.dtype)  # a NumPy array keeps its dtype
        if dtype is None:
            if a.dtype == _np.float64 or a.dtype.kind == "f":
                dtype = float32
            elif a.dtype == _np.bool_:
                dtype = bool_
            elif a.dtype.kind in "iu":
                dtype = int32
            else:
                raise TypeError("For 'array', the input must be numbers, lists, tuples, NumPy arrays or "
                                "Tensors, but got %s." % a.dtype)
        out = _U.const(a, dtype)
    while out.ndim < ndmin:
        out = _ops.expand_dims(out, 0)
    return out


def asarray(a, dtype=None):
    if isinstance(a, _Tensor) and (dtype is None or _to_dtype(dtype) == a.dtype):
        return a
    return array(a, dtype, copy=False)


def asfarray(a, dtype=float32):
    dtype = _to_dtype(dtype)
    if dtype not in (float32, float64):
        dtype = float32
    return asarray(a, dtype)


def copy_(a):
    return _tensor(a).copy()


def _shape(shape):
    if isinstance(shape, (int, _np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def zeros(shape, dtype=float32):
    return _ops.zeros(_shape(shape), _to_dtype(dtype))


def ones(shape, dtype=float32):
    return _ops.ones(_shape(shape), _to_dtype(dtype))


def empty(shape, dtype=float32):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    if isinstance(fill_value, _Tensor):
        return _ops.broadcast_to(fill_value.astype(_to_dtype(dtype)) if dtype else fill_value, _shape(shape))
    if dtype is None:
        dtype = bool_ if isinstance(fill_value, bool) else (int32 if isinstance(fill_value, int) else float32)
    return _ops.full(_shape(shape), fill_value, dtype=_to_dtype(dtype))


def zeros_like(a, dtype=None, shape=None):
    a = _tensor(a)
    return zeros(shape if shape is not None else a.shape, dtype or a.dtype)


def ones_like(a, dtype=None, shape=None):
    a = _tensor(a)
    return ones(shape if shape is not None else a.shape, dtype or a.dtype)


def empty_like(prototype, dtype=None, shape=None):
    return zeros_like(prototype, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    a = _tensor(a)
    return full(shape if shape is not None else a.shape, fill_value, dtype or a.dtype)


def arange(start, stop=None, step=None, dtype=None):
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = _np.arange(start, stop, step)
    if dtype is None:
        dtype = float32 if values.dtype.kind == "f" else int32
    return _U.const(values, _to_dtype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    values, step = _np.linspace(_U.numpy_of(start), _U.numpy_of(stop), num, endpoint, retstep=True, axis=axis)
    out = _U.const(values, _to_dtype(dtype) or float32)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    return _U.const(_np.logspace(start, stop, num, endpoint, base, axis=axis), _to_dtype(dtype) or float32)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    return _U.const(_np.geomspace(start, stop, num, endpoint, axis=axis), _to_dtype(dtype) or float32)


def eye(N, M=None, k=0, dtype=float32):
    return _U.const(_np.eye(N, M, k), _to_dtype(dtype))


def identity(n, dtype=float32):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=float32):
    return _U.const(_np.tri(N, M, k), _to_dtype(dtype))


def tril(m, k=0):
    return _ops.tril(_tensor(m), k)


def triu(m, k=0):
    return _ops.triu(_tensor(m), k)


def diag(v, k=0):
    v = _tensor(v)
    if v.ndim == 1:
        n = v.shape[0] + _builtins.abs(k)
        rows = _np.arange(v.shape[0]) + _builtins.max(-k, 0)
        cols = _np.arange(v.shape[0]) + _builtins.max(k, 0)
        flat = rows * n + cols
        return _ops.reshape(_ops.scatter_nd(_U.const(flat.reshape(-1, 1), int64), v, (n * n,)), (n, n))
    return _ops.diagonal(v, k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _ops.diagonal(_tensor(a), offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    return _ops.sum(_ops.diagonal(_tensor(a), offset, axis1, axis2), -1)


def meshgrid(*xi, sparse=False, indexing="xy"):
    return list(_ops.meshgrid(*[_tensor(x) for x in xi], indexing=indexing))


# ---------------------------------------------------------------- shapes
def shape(a):
    return tuple(_tensor(a).shape)


def size(a, axis=None):
    a = _tensor(a)
    return a.size if axis is None else a.shape[axis]


def ndim(a):
    return _tensor(a).ndim


def reshape(x, new_shape):
    return _ops.reshape(_tensor(x), _shape(new_shape))


def ravel(x):
    return _ops.reshape(_tensor(x), (-1,))


def transpose(a, axes=None):
    a = _tensor(a)
    axes = tuple(range(a.ndim - 1, -1, -1)) if axes is None else tuple(axes)
    return _ops.transpose(a, axes)


def swapaxes(x, axis1, axis2):
    return _ops.swapaxes(_tensor(x), axis1, axis2)


def moveaxis(a, source, destination):
    return _ops.moveaxis(_tensor(a), source, destination)


def rollaxis(x, axis, start=0):
    x = _tensor(x)
    axis %= x.ndim
    if start > axis:
        start -= 1
    return _ops.moveaxis(x, axis, start)


def expand_dims(a, axis):
    a = _tensor(a)
    for ax in sorted(axis if isinstance(axis, (tuple, list)) else (axis,)):
        a = _ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    return _ops.squeeze(_tensor(a), axis)


def atleast_1d(*arys):
    out = [_ops.atleast_1d(_tensor(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = [_ops.atleast_2d(_tensor(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    out = [_ops.atleast_3d(_tensor(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def concatenate(arrays, axis=0):
    arrays = [_tensor(a) for a in arrays]
    if axis is None:
        return _ops.concat(tuple(ravel(a) for a in arrays), 0)
    return _ops.concat(tuple(arrays), axis)


def append(arr, values, axis=None):
    return concatenate((arr, values), axis)


def stack(arrays, axis=0):
    return _ops.stack(tuple(_tensor(a) for a in arrays), axis)


def hstack(tup):
    return _ops.hstack([_tensor(a) for a in tup])


def vstack(tup):
    return _ops.vstack([_tensor(a) for a in tup])


def dstack(tup):
    return _ops.dstack([_tensor(a) for a in tup])


def column_stack(tup):
    return _ops.column_stack([_tensor(a) for a in tup])


def split(x, indices_or_sections, axis=0):
    x = _tensor(x)
    if isinstance(indices_or_sections, int):
        n = x.shape[axis]
        if n % indices_or_sections:
            raise ValueError("For 'split', array split does not result in an equal division: %d into %d."
                             % (n, indices_or_sections))
    return list(_ops.tensor_split(x, indices_or_sections, axis))


def array_split(x, indices_or_sections, axis=0):
    return list(_ops.tensor_split(_tensor(x), indices_or_sections, axis))


def hsplit(x, indices_or_sections):
    return split(x, indices_or_sections, 1 if _tensor(x).ndim > 1 else 0)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, 0)


def flip(m, axis=None):
    m = _tensor(m)
    axes = tuple(range(m.ndim)) if axis is None else (axis if isinstance(axis, (tuple, list)) else (axis,))
    return _ops.flip(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    return _ops.roll(_tensor(a), shift, axis)


def tile(a, reps):
    return _tensor(a).tile(reps)


def repeat(a, repeats, axis=None):
    return _ops.repeat_interleave(_tensor(a), repeats, axis)


def broadcast_to(array, shape):
    return _ops.broadcast_to(_tensor(array), _shape(shape))


def broadcast_arrays(*args):
    arrays = [_tensor(a) for a in args]
    target = tuple(_np.broadcast_shapes(*[tuple(a.shape) for a in arrays]))
    return [_ops.broadcast_to(a, target) for a in arrays]


def pad(arr, pad_width, mode="constant", constant_values=0):
    arr = _tensor(arr)
    widths = _np.broadcast_to(_np.asarray(pad_width, dtype=_np.int64), (arr.ndim, 2))
    flat = []
    for pair in widths[::-1]:
        flat += [int(pair[0]), int(pair[1])]
    modes = {"constant": "constant", "edge": "replicate", "reflect": "reflect", "wrap": "circular"}
    if mode not in modes:
        raise NotImplementedError("For 'pad', mode '%s' is not supported; use one of %s." % (mode, list(modes)))
    return _ops.pad(arr, tuple(flat), modes[mode], constant_values if mode == "constant" else None)


# ---------------------------------------------------------------- elementwise
def _binary(fn):
    def apply(x1, x2, dtype=None):
        a, b = x1, x2
        if not isinstance(a, _Tensor) and not isinstance(b, _Tensor):
            a = array(a)
        out = fn(a, b)
        return out.astype(_to_dtype(dtype)) if dtype is not None else out

    return apply


def _unary(fn):
    def apply(x, dtype=None):
        out = fn(_tensor(x))
        return out.astype(_to_dtype(dtype)) if dtype is not None else out

    return apply


add = _binary(_ops.add)
subtract = _binary(_ops.sub)
multiply = _binary(_ops.mul)
divide = _binary(_ops.div)
true_divide = divide
floor_divide = _binary(_ops.floor_div)
remainder = _binary(_ops.floor_mod)
mod = remainder
fmod = _binary(_ops.fmod)
power = _binary(_ops.pow)
float_power = _binary(_ops.float_power)
maximum = _binary(_ops.maximum)
minimum = _binary(_ops.minimum)
fmax = maximum
fmin = minimum
equal = _binary(_ops.equal)
not_equal = _binary(_ops.ne)
less = _binary(_ops.lt)
less_equal = _binary(_ops.le)
greater = _binary(_ops.gt)
greater_equal = _binary(_ops.ge)
logical_and = _binary(_ops.logical_and)
logical_or = _binary(_ops.logical_or)
logical_xor = _binary(_ops.logical_xor)
heaviside = _binary(_ops.heaviside)
arctan2 = _binary(_ops.atan2)
logaddexp = _binary(_ops.logaddexp)

abs = _unary(_ops.abs)
absolute = abs
negative = _unary(_ops.neg)
positive = _unary(lambda x: x)
sign = _unary(_ops.sign)
exp = _unary(_ops.exp)
exp2 = _unary(_ops.exp2)
expm1 = _unary(_ops.expm1)
log = _unary(_ops.log)
log2 = _unary(_ops.log2)
log10 = _unary(_ops.log10)
log1p = _unary(_ops.log1p)
sqrt = _unary(_ops.sqrt)
square = _unary(_ops.square)
reciprocal = _unary(_ops.reciprocal)
sin = _unary(_ops.sin)
cos = _unary(_ops.cos)
tan = _unary(_ops.tan)
sinh = _unary(_ops.sinh)
cosh = _unary(_ops.cosh)
tanh = _unary(_ops.tanh)
floor = _unary(_ops.floor)
ceil = _unary(_ops.ceil)
trunc = _unary(_ops.trunc)
fix = trunc
rint = _unary(_ops.round)
isnan = _unary(_ops.isnan)
isinf = _unary(_ops.isinf)
isfinite = _unary(_ops.isfinite)
isneginf = _unary(_ops.isneginf)
isposinf = _unary(_ops.isposinf)
signbit = _unary(_ops.signbit)
logical_not = _unary(_ops.logical_not)
arctan = _unary(_ops.atan)
arcsin = _unary(_ops.asin)
arccos = _unary(_ops.acos)
arcsinh = _unary(_ops.asinh)
arccosh = _unary(_ops.acosh)
arctanh = _unary(_ops.atanh)
deg2rad = _unary(_ops.deg2rad)
rad2deg = _unary(_ops.rad2deg)
radians = deg2rad
degrees = rad2deg


def cbrt(x, dtype=None):
    x = _tensor(x)
    return _ops.sign(x) * _ops.pow(_ops.abs(x), 1.0 / 3.0)


def around(a, decimals=0):
    a = _tensor(a)
    if decimals == 0:
        return _ops.round(a)
    scale = 10.0 ** decimals
    return _ops.round(a * scale) / scale


round = around


def clip(a, a_min, a_max, dtype=None):
    out = _ops.clamp(_tensor(a), a_min, a_max)
    return out.astype(_to_dtype(dtype)) if dtype is not None else out


def where(condition, x=None, y=None):
    condition = _tensor(condition)
    if x is None and y is None:
        return _ops.nonzero(condition, as_tuple=True)
    x = x if isinstance(x, _Tensor) else array(x)
    y = y if isinstance(y, _Tensor) else array(y, x.dtype)
    return _ops.where(condition.astype(bool_) if condition.dtype != bool_ else condition, x, y)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _ops.isclose(_tensor(a), _tensor(b), rtol, atol, equal_nan)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_ops.all(isclose(a, b, rtol, atol, equal_nan)).asnumpy())


def array_equal(a1, a2, equal_nan=False):
    a, b = _tensor(a1), _tensor(a2)
    if tuple(a.shape) != tuple(b.shape):
        return False
    return bool(_np.array_equal(a.asnumpy(), b.asnumpy(), equal_nan=equal_nan))


def array_equiv(a1, a2):
    try:
        return bool(_np.array_equiv(_tensor(a1).asnumpy(), _tensor(a2).asnumpy()))
    except ValueError:
        return False


# ---------------------------------------------------------------- reductions
def sum(a, axis=None, dtype=None, keepdims=False, initial=None):
    a = _tensor(a)
    if a.dtype == bool_:
        a = a.astype(int32)
    out = _ops.sum(a, _axis_arg(axis), keepdims) if a.ndim else a
    if initial is not None:
        out = out + initial
    return out.astype(_to_dtype(dtype)) if dtype is not None else out


def mean(a, axis=None, keepdims=False, dtype=None):
    a = _U.to_float(_tensor(a))
    out = _ops.mean(a, _axis_arg(axis), keepdims) if a.ndim else a
    return out.astype(_to_dtype(dtype)) if dtype is not None else out


def average(x, axis=None, weights=None, returned=False):
    x = _tensor(x)
    if weights is None:
        avg = mean(x, axis)
        wsum = _ops.full(avg.shape, float(x.size // _builtins.max(avg.size, 1)), dtype=avg.dtype)
    else:
        w = _tensor(weights).astype(_U.float_dtype(x))
        if w.ndim == 1 and x.ndim > 1 and axis is not None:
            view = [1] * x.ndim
            view[axis] = -1
            w = _ops.reshape(w, tuple(view))
        wsum = _ops.sum(_ops.broadcast_to(w, x.shape), _axis_arg(axis))
        avg = _ops.sum(x * w, _axis_arg(axis)) / wsum
    return (avg, wsum) if returned else avg


def prod(a, axis=None, keepdims=False, initial=None, dtype=None):
    out = _ops.prod(_tensor(a), _axis_arg(axis), keepdims)
    if initial is not None:
        out = out * initial
    return out.astype(_to_dtype(dtype)) if dtype is not None else out


def std(x, axis=None, ddof=0, keepdims=False):
    return _ops.std(_tensor(x), _axis_arg(axis), ddof, keepdims)


def var(x, axis=None, ddof=0, keepdims=False):
    return _ops.var(_tensor(x), _axis_arg(axis), ddof, keepdims)


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    out = _ops.amax(_tensor(a), _axis_arg(axis), keepdims)
    return _ops.maximum(out, initial) if initial is not None else out


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    out = _ops.amin(_tensor(a), _axis_arg(axis), keepdims)
    return _ops.minimum(out, initial) if initial is not None else out


max = amax
min = amin


def ptp(x, axis=None, keepdims=False):
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def argmax(a, axis=None):
    a = _tensor(a)
    if axis is None:
        return _ops.argmax(_ops.reshape(a, (-1,)), 0)
    return _ops.argmax(a, axis)


def argmin(a, axis=None):
    a = _tensor(a)
    if axis is None:
        return _ops.argmin(_ops.reshape(a, (-1,)), 0)
    return _ops.argmin(a, axis)


def all(a, axis=None, keepdims=False):
    return _ops.all(_tensor(a), _axis_arg(axis), keepdims)


def any(a, axis=None, keepdims=False):
    return _ops.any(_tensor(a), _axis_arg(axis), keepdims)


def count_nonzero(x, axis=None, keepdims=False):
    return _ops.count_nonzero(_tensor(x), () if axis is None else axis, keepdims, int32)


def cumsum(a, axis=None, dtype=None):
    a = _tensor(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ops.cumsum(a, axis, _to_dtype(dtype))


def cumprod(a, axis=None, dtype=None):
    a = _tensor(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ops.cumprod(a, axis, _to_dtype(dtype))


def nansum(a, axis=None, dtype=None, keepdims=False):
    return _ops.nansum(_tensor(a), _axis_arg(axis), keepdims, dtype=_to_dtype(dtype))


def nanmean(a, axis=None, dtype=None, keepdims=False):
    a = _tensor(a)
    valid = _ops.logical_not(_ops.isnan(a)).astype(a.dtype)
    return nansum(a, axis, dtype, keepdims) / _ops.sum(valid, _axis_arg(axis), keepdims)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    return _ops.diff(_tensor(a), n, axis, prepend, append)


# ---------------------------------------------------------------- linear algebra
def dot(a, b):
    a, b = _tensor(a), _tensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if b.ndim > 2:  # sum over the last axis of a and the second-to-last of b
        return _ops.tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))
    return _ops.matmul(a, b)


def matmul(x1, x2, dtype=None):
    out = _ops.matmul(_tensor(x1), _tensor(x2))
    return out.astype(_to_dtype(dtype)) if dtype is not None else out


def vdot(a, b):
    return _ops.sum(ravel(a) * ravel(b))


def inner(a, b):
    return _ops.inner(_tensor(a), _tensor(b))


def outer(a, b):
    return _ops.outer(ravel(a), ravel(b))


def tensordot(a, b, axes=2):
    return _ops.tensor_dot(_tensor(a), _tensor(b), axes)


def kron(a, b):
    return _ops.kron(_tensor(a), _tensor(b))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    a, b = _tensor(a), _tensor(b)
    a0, a1, a2 = _ops.unbind(a, -1)
    b0, b1, b2 = _ops.unbind(b, -1)
    return _ops.stack((a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0), -1)


# ---------------------------------------------------------------- sorting, searching, indexing
def sort(a, axis=-1, kind=None, order=None):
    a = _tensor(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ops.sort(a, axis)[0]


def argsort(a, axis=-1, kind="quicksort", order=None):
    a = _tensor(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ops.sort(a, axis)[1]


def unique(x, return_inverse=False):
    """The sorted distinct values (ops.unique keeps the order of first occurrence)."""
    out, idx = _ops.unique(_tensor(x))
    values, order = _ops.sort(out)
    if not return_inverse:
        return values
    rank = _ops.argsort(order.astype(_mstype.int64)).astype(idx.dtype)
    return values, _ops.gather(rank, idx, 0)


def searchsorted(a, v, side="left", sorter=None):
    return _ops.searchsorted(_tensor(a), _tensor(v), right=(side == "right"))


def take(a, indices, axis=None, mode="clip"):
    return _ops.take(_tensor(a), _tensor(indices), axis, mode)


def take_along_axis(arr, indices, axis):
    return _ops.take_along_dim(_tensor(arr), _tensor(indices), axis)


def nonzero(a):
    return _ops.nonzero(_tensor(a), as_tuple=True)


def flatnonzero(a):
    return _ops.nonzero(ravel(a), as_tuple=True)[0]


def argwhere(a):
    return _ops.nonzero(_tensor(a))


def select(condlist, choicelist, default=0):
    out = None
    for cond, choice in zip(reversed(list(condlist)), reversed(list(choicelist))):
        choice = _tensor(choice)
        base = out if out is not None else full_like(choice, default)
        out = _ops.where(_tensor(cond), choice, base)
    return out


def choose(a, choices, mode="clip"):
    a = _tensor(a)
    stacked = _ops.stack(tuple(broadcast_arrays(*[_tensor(c) for c in choices])), 0)
    idx = _ops.clamp(a, 0, len(choices) - 1).astype(int64)
    return _ops.squeeze(_ops.gather_elements(stacked, 0, _ops.expand_dims(_ops.broadcast_to(idx, stacked.shape[1:]), 0)), 0)


def bincount(x, weights=None, minlength=0, length=None):
    return _ops.bincount(_tensor(x), weights, minlength)


def histogram(a, bins=10, range=None, weights=None, density=False):
    h, edges = _np.histogram(_U.numpy_of(a), bins, range, density=density,
                             weights=None if weights is None else _U.numpy_of(weights))
    return _U.const(h, float32 if density or weights is not None else int32), _U.const(edges, float32)


def logsumexp(a, axis=None, keepdims=False):
    return _ops.logsumexp(_tensor(a), axis, keepdims)


def rand(*shape, dtype=float32):
    return _ops.rand(*shape, dtype=dtype)


def randn(*shape, dtype=float32):
    return _ops.randn(*shape, dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=int32):
    if maxval is None:
        minval, maxval = 0, minval
    return _ops.randint(minval, maxval, _shape(shape if shape is not None else ()), dtype=dtype)


def result_type(*arrays_and_dtypes):
    kinds = []
    for v in arrays_and_dtypes:
        kinds.append(v.dtype if isinstance(v, _Tensor) else v)
    for t in (float64, float32, int64, int32, bool_):
        if t in kinds:
            return t
    return float32


def promote_types(type1, type2):
    return result_type(type1, type2)


def copy(a):
    return _tensor(a).copy()


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = _tensor(arr)
    moved = _ops.moveaxis(arr, axis, -1)
    lead = tuple(moved.shape[:-1])
    rows = _ops.reshape(moved, (-1, moved.shape[-1]))
    outs = [func1d(r, *args, **kwargs) for r in _ops.unbind(rows, 0)]
    out = _ops.stack(tuple(outs), 0)
    return _ops.reshape(out, lead + tuple(out.shape[1:]))
