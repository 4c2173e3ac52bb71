"""The Tensor methods of MindSpore 2.2 that the C++ binding lacks, written over mindspore.ops
(so they are recorded and differentiable), plus copy / deepcopy / pickle of Tensor and Parameter.
A method the C++ class already has is never replaced."""
import builtins as _builtins

import numpy as np

import mindspore
import mindspore.ops as ops
import mindspore.ops._functional_array  # noqa: F401  (the functions the methods call)
import mindspore.ops._functional_math  # noqa: F401
import mindspore.ops._functional_nn  # noqa: F401
import mindspore.ops._primitives_nn  # noqa: F401  (P.ArgMaxWithValue users, primitives registered)
from mindspore import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U

_methods = {}


def method(fn=None, name=None):
    def deco(f):
        _methods[name or f.__name__] = f
        return f

    return deco(fn) if fn is not None else deco


def _dims(args):
    """f(2, 3) and f((2, 3)) alike."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


# ---------------------------------------------------------------- arithmetic
@method
def add(self, other, *, alpha=1):
    return ops.add(self, other * alpha if alpha != 1 else other)


@method
def sub(self, other, *, alpha=1):
    return ops.sub(self, other * alpha if alpha != 1 else other)


@method
def subtract(self, other, *, alpha=1):
    return sub(self, other, alpha=alpha)


@method
def mul(self, value):
    return ops.mul(self, value)


@method
def multiply(self, value):
    return ops.mul(self, value)


@method
def div(self, value, *, rounding_mode=None):
    return ops.div(self, value, rounding_mode=rounding_mode)


@method
def divide(self, value, *, rounding_mode=None):
    return ops.div(self, value, rounding_mode=rounding_mode)


@method
def true_divide(self, value):
    return ops.div(self, value)


@method
def floor_divide(self, value):
    return ops.floor_div(self, value)


@method
def remainder(self, divisor):
    return ops.floor_mod(self, divisor)


@method
def fmod(self, other):
    return ops.fmod(self, other)


@method
def neg(self):
    return ops.neg(self)


@method
def negative(self):
    return ops.neg(self)


@method
def absolute(self):
    return ops.abs(self)


@method
def rsqrt(self):
    return ops.rsqrt(self)


@method
def square(self):
    return ops.square(self)


@method
def reciprocal(self):
    return ops.reciprocal(self)


for _name in ("sin", "cos", "tanh", "sigmoid", "floor", "ceil", "trunc", "erf", "erfc", "expm1", "log1p",
              "log2", "log10", "exp2", "tan", "sinh", "cosh", "sign", "isnan", "isinf", "isfinite",
              "logical_not", "relu", "softsign", "frac", "signbit", "deg2rad", "rad2deg", "logit",
              "atan", "asin", "acos", "asinh", "acosh", "atanh", "arctan", "arcsin", "arccos", "arcsinh",
              "arccosh", "arctanh", "sinc"):
    def _make(op_name):
        def unary(self):
            return getattr(ops, op_name)(self)

        unary.__name__ = op_name
        return unary

    _methods.setdefault(_name, _make(_name))


@method
def clamp(self, min=None, max=None):
    return ops.clamp(self, min, max)


@method
def lerp(self, end, weight):
    return ops.lerp(self, end, weight)


@method
def xlogy(self, y):
    return ops.xlogy(self, y)


@method
def addcmul(self, tensor1, tensor2, value=1):
    return ops.addcmul(self, tensor1, tensor2, value)


@method
def addcdiv(self, tensor1, tensor2, value=1):
    return ops.addcdiv(self, tensor1, tensor2, value)


@method
def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)


@method
def outer(self, vec2):
    return ops.outer(self, vec2)


@method
def inner(self, other):
    return ops.inner(self, other)


@method
def mm(self, mat2):
    return ops.mm(self, mat2)


@method
def bmm(self, mat2):
    return ops.bmm(self, mat2)


@method
def dot(self, other):
    return ops.matmul(self, other)


@method
def trace(self):
    return ops.trace(self)


@method
def softmax(self, axis, dtype=None):
    return ops.softmax(self, axis, dtype=dtype)


@method
def log_softmax(self, axis=-1):
    return ops.log_softmax(self, axis)


# ---------------------------------------------------------------- comparison and logic
for _name, _op in (("equal", "equal"), ("ge", "ge"), ("gt", "gt"), ("le", "le"), ("lt", "lt"), ("ne", "ne"),
                   ("greater", "greater"), ("greater_equal", "greater_equal"), ("less", "less"),
                   ("less_equal", "less_equal"), ("not_equal", "ne"), ("maximum", "maximum"),
                   ("minimum", "minimum"), ("logical_and", "logical_and"), ("logical_or", "logical_or"),
                   ("logical_xor", "logical_xor"), ("floor_mod", "floor_mod"), ("atan2", "atan2"),
                   ("arctan2", "atan2")):
    def _make2(op_name, name):
        def binary(self, other):
            return getattr(ops, op_name)(self, other)

        binary.__name__ = name
        return binary

    _methods.setdefault(_name, _make2(_op, _name))


@method
def isclose(self, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.isclose(self, x2, rtol, atol, equal_nan)


@method
def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.allclose(self, other, rtol, atol, equal_nan)


@method
def has_init(self):
    return False


# ---------------------------------------------------------------- reductions
def _numpy_call(name, kwargs, keep):
    """NumPy's np.all(t) / np.prod(t) / np.std(t) call t.all(axis=..., out=None, ...): accept
    its keywords (out must be None; keepdims and dtype as NumPy means them)."""
    out = kwargs.pop("out", None)
    if out is not None:
        raise TypeError("For 'Tensor.%s', the 'out' argument is not supported." % name)
    if "keepdims" in kwargs:
        keep = bool(kwargs.pop("keepdims"))
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("where", None)
    if kwargs:
        raise TypeError("Tensor.%s() got an unexpected keyword argument '%s'" % (name, next(iter(kwargs))))
    return keep, dtype


def _cast(value, dtype):
    return value if dtype is None else value.astype(dtype)


@method
def prod(self, axis=None, keep_dims=False, **kwargs):
    keep_dims, dtype = _numpy_call("prod", kwargs, keep_dims)
    return _cast(ops.prod(self, axis, keep_dims), dtype)


@method
def std(self, axis=None, ddof=0, keepdims=False, **kwargs):
    keepdims, dtype = _numpy_call("std", kwargs, keepdims)
    return _cast(ops.std(self, axis, ddof, keepdims), dtype)


@method
def var(self, axis=None, ddof=0, keepdims=False, **kwargs):
    keepdims, dtype = _numpy_call("var", kwargs, keepdims)
    return _cast(ops.var(self, axis, ddof, keepdims), dtype)


@method
def all(self, axis=None, keep_dims=False, **kwargs):
    keep_dims, _ = _numpy_call("all", kwargs, keep_dims)
    return ops.all(self, axis, keep_dims)


@method
def any(self, axis=None, keep_dims=False, **kwargs):
    keep_dims, _ = _numpy_call("any", kwargs, keep_dims)
    return ops.any(self, axis, keep_dims)


@method
def amax(self, axis=None, keepdims=False):
    return ops.amax(self, axis, keepdims)


@method
def amin(self, axis=None, keepdims=False):
    return ops.amin(self, axis, keepdims)


@method
def logsumexp(self, axis, keepdims=False):
    return ops.logsumexp(self, axis, keepdims)


@method
def nansum(self, axis=None, keepdims=False, dtype=None):
    return ops.nansum(self, axis, keepdims, dtype=dtype)


@method
def cumsum(self, axis=None, dtype=None):
    if axis is None:
        return ops.cumsum(ops.reshape(self, (-1,)), 0, dtype)
    return ops.cumsum(self, axis, dtype)


@method
def cumprod(self, dim, dtype=None):
    return ops.cumprod(self, dim, dtype)


@method
def cummax(self, axis):
    return ops.cummax(self, axis)


@method
def cummin(self, axis):
    return ops.cummin(self, axis)


@method
def argmax_with_value(self, axis=0, keep_dims=False):
    idx, val = ops.ArgMaxWithValue(axis, keep_dims)(self)
    return idx, val


@method
def argmin_with_value(self, axis=0, keep_dims=False):
    idx, val = ops.ArgMinWithValue(axis, keep_dims)(self)
    return idx, val


@method
def count_nonzero(self, axis=(), keep_dims=False, dtype=mstype.int32):
    return ops.count_nonzero(self, axis, keep_dims, dtype)


@method
def median(self, axis=-1, keepdims=False):
    return ops.median(self, axis, keepdims)


# ---------------------------------------------------------------- shapes
@method
def ravel(self):
    return ops.reshape(self, (-1,))


@method
def unsqueeze(self, dim):
    return ops.unsqueeze(self, dim)


@method
def expand_as(self, other):
    return ops.broadcast_to(self, tuple(other.shape))


@method
def expand(self, size):
    shape = tuple(int(v) for v in U.numpy_of(size).reshape(-1)) if isinstance(size, Tensor) else tuple(size)
    return ops.broadcast_to(self, shape)


@method
def broadcast_to(self, shape):
    return ops.broadcast_to(self, tuple(shape))


@method
def permute(self, *axis):
    return ops.transpose(self, _dims(axis))


@method
def swapaxes(self, axis0, axis1):
    return ops.swapaxes(self, axis0, axis1)


@method
def swapdims(self, dim0, dim1):
    return ops.swapaxes(self, dim0, dim1)


@method
def moveaxis(self, source, destination):
    return ops.moveaxis(self, source, destination)


@method
def tile(self, reps):
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    if len(reps) < self.ndim:
        reps = (1,) * (self.ndim - len(reps)) + reps
    x = self
    if len(reps) > self.ndim:
        x = ops.reshape(x, (1,) * (len(reps) - self.ndim) + tuple(self.shape))
    return ops.tile(x, reps)


@method
def repeat(self, repeats, axis=None):
    if isinstance(repeats, (tuple, list)):
        repeats = Tensor(np.asarray(repeats, np.int64))
    return ops.repeat_interleave(self, repeats, axis)


@method
def repeat_interleave(self, repeats, dim=None):
    return ops.repeat_interleave(self, repeats, dim)


@method
def flip(self, dims):
    return ops.flip(self, dims)


@method
def fliplr(self):
    return ops.fliplr(self)


@method
def flipud(self):
    return ops.flipud(self)


@method
def roll(self, shifts, dims):
    return ops.roll(self, shifts, dims)


@method
def split(self, split_size_or_sections, axis=0):
    return ops.split(self, split_size_or_sections, axis)


@method
def tensor_split(self, indices_or_sections, axis=0):
    return ops.tensor_split(self, indices_or_sections, axis)


@method
def chunk(self, chunks, axis=0):
    return ops.chunk(self, chunks, axis)


@method
def unbind(self, dim=0):
    return ops.unbind(self, dim)


@method
def narrow(self, axis, start, length):
    return ops.narrow(self, axis, start, length)


@method
def tril(self, diagonal=0):
    return ops.tril(self, diagonal)


@method
def triu(self, diagonal=0):
    return ops.triu(self, diagonal)


@method
def diagonal(self, offset=0, axis1=0, axis2=1):
    return ops.diagonal(self, offset, axis1, axis2)


@method
def diag(self):
    return ops.diag(self)


@method
def view_as(self, other):
    return ops.reshape(self, tuple(other.shape))


@method
def reshape_as(self, other):
    return ops.reshape(self, tuple(other.shape))


@method
def resize(self, *new_shape):
    shape = _dims(new_shape)
    flat = ops.reshape(self, (-1,))
    n = int(np.prod(shape, dtype=np.int64))
    if n <= flat.shape[0]:
        return ops.reshape(ops.narrow(flat, 0, 0, n), shape) if n else ops.zeros(shape, self.dtype)
    pad = ops.zeros((n - flat.shape[0],), self.dtype)
    return ops.reshape(ops.concat((flat, pad), 0), shape)


@method
def contiguous(self):
    return self


@method
def is_contiguous(self):
    return True


@method
def numel(self):
    return self.size


@method
def nelement(self):
    return self.size


@method
def element_size(self):
    return self.itemsize


@method
def is_floating_point(self):
    return self.dtype in U._ALL_FLOATS


@method
def is_signed(self):
    return self.dtype != mstype.bool_


@method
def is_complex(self):
    return self.dtype in (mstype.complex64, mstype.complex128)


@method
def real(self):
    return ops.real(self)


@method
def imag(self):
    return ops.imag(self)


@method
def conj(self):
    return ops.conj(self)


# ---------------------------------------------------------------- indexing
@method
def gather(self, input_indices, axis, batch_dims=0):
    return ops.gather(self, input_indices, axis, batch_dims)


@method
def gather_elements(self, dim, index):
    return ops.gather_elements(self, dim, index)


@method
def gather_nd(self, indices):
    return ops.gather_nd(self, indices)


@method
def index_select(self, axis, index):
    return ops.index_select(self, axis, index)


@method
def take(self, indices, axis=None, mode="clip"):
    return ops.take(self, indices, axis, mode)


@method
def masked_fill(self, mask, value):
    return ops.masked_fill(self, mask, value)


@method
def masked_select(self, mask):
    return ops.masked_select(self, mask)


@method
def where(self, condition, y):
    return ops.where(condition, self, y)


@method
def scatter(self, axis, index, src):
    return ops.scatter(self, axis, index, src)


@method
def scatter_add(self, indices, updates):
    return ops.tensor_scatter_add(self, indices, updates)


@method
def tensor_scatter_add(self, indices, updates):
    return ops.tensor_scatter_add(self, indices, updates)


@method
def scatter_update(self, indices, updates):
    return ops.tensor_scatter_update(self, indices, updates)


@method
def index_fill(self, axis, index, value):
    ax = U.norm_axis("index_fill", axis, self.ndim)
    mask = np.zeros(self.shape[ax], bool)
    mask[U.numpy_of(index).astype(np.int64)] = True
    view = [1] * self.ndim
    view[ax] = -1
    return ops.masked_fill(self, ops.broadcast_to(U.const(mask.reshape(view), mstype.bool_), tuple(self.shape)), value)


@method
def topk(self, k, dim=None, largest=True, sorted=True):
    return ops.topk(self, k, dim, largest, sorted)


@method
def sort(self, axis=-1, descending=False):
    return ops.sort(self, axis, descending)


@method
def argsort(self, axis=-1, descending=False):
    return ops.argsort(self, axis, descending)


@method
def nonzero(self):
    return ops.nonzero(self)


@method
def argwhere(self):
    return ops.nonzero(self)


@method
def unique_consecutive(self, return_idx=False, return_counts=False, axis=None):
    return ops.unique_consecutive(self, return_idx, return_counts, axis)


@method
def searchsorted(self, v, side="left", sorter=None):
    """Insertion points of v into self (sorted, or put in order by the permutation `sorter`),
    shaped as v: a scalar v gives a scalar index."""
    if side not in ("left", "right"):
        raise ValueError("For 'Tensor.searchsorted', the argument 'side' should be one of in ['left', 'right'], "
                         "but got %s." % side)
    seq = self
    if sorter is not None:
        order = sorter if isinstance(sorter, Tensor) else Tensor(np.asarray(sorter))
        if order.ndim != 1 or order.size != self.size:
            raise ValueError("sorter must be 1-D array with the same size as the Tensor")
        seq = ops.gather(self, ops.cast(order, mstype.int64), 0)
    values = v if isinstance(v, Tensor) else Tensor(np.asarray(v))
    if values.ndim == 0:
        return ops.reshape(ops.searchsorted(seq, ops.reshape(values, (1,)), right=(side == "right")), ())
    return ops.searchsorted(seq, values, right=(side == "right"))


@method
def index_add(self, dim, index, source, *, alpha=1):
    return ops.index_add(self, index, source * alpha if alpha != 1 else source, dim)


@method
def sum_to_size(self, *size):
    return ops.sum_to_size(self, *size)


@method
def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    return ops.nan_to_num(self, nan, posinf, neginf)


@method
def logaddexp(self, other):
    return ops.logaddexp(self, other)


@method
def kron(self, other):
    return ops.kron(self, other)


@method
def diff(self, n=1, axis=-1, prepend=None, append=None):
    return ops.diff(self, n, axis, prepend, append)


@method
def hardshrink(self, lambd=0.5):
    return ops.hardshrink(self, lambd)


@method
def addmv(self, mat, vec, beta=1, alpha=1):
    return ops.addmv(self, mat, vec, beta=beta, alpha=alpha)


@method
def ptp(self, axis=None, keepdims=False):
    return ops.amax(self, axis, keepdims) - ops.amin(self, axis, keepdims)


@method
def inv(self):
    return ops.reciprocal(self)


@method
def bernoulli(self, p=0.5, seed=None):
    return ops.bernoulli(self, p, seed)


@method
def multinomial(self, num_samples, replacement=True, seed=None):
    return ops.multinomial(self, num_samples, replacement, seed)


# ---------------------------------------------------------------- conversion and state
@method
def to(self, dtype):
    return self.astype(dtype)


@method
def type(self, dtype=None):
    if dtype is None:
        return str(self.dtype)
    return self.astype(dtype)


@method
def type_as(self, other):
    return self.astype(other.dtype)


for _name, _dt in (("float", mstype.float32), ("double", mstype.float64), ("int", mstype.int32),
                   ("long", mstype.int64), ("bool", mstype.bool_)):
    def _make_cast(dt, name):
        def cast(self, memory_format=None):
            return self.astype(dt)

        cast.__name__ = name
        return cast

    _methods.setdefault(_name, _make_cast(_dt, _name))


for _name, _dt_name in (("half", "float16"), ("bfloat16", "bfloat16"), ("short", "int16"), ("char", "int8"),
                        ("byte", "uint8")):
    def _make_lazy_cast(dt_name, name):
        def cast(self, memory_format=None):
            dt = getattr(mstype, dt_name, None)
            if dt is None:
                raise TypeError("For 'Tensor.%s', the dtype %s is not available in this gradstep build."
                                % (name, dt_name))
            return self.astype(dt)

        cast.__name__ = name
        return cast

    _methods.setdefault(_name, _make_lazy_cast(_dt_name, _name))


@method
def ndimension(self):
    return self.ndim


@method
def tolist(self):
    return self.asnumpy().tolist()


@method
def numpy(self):
    return self.asnumpy()


@method
def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
    return self


@method
def set_dtype(self, dtype):
    """A Parameter changes its dtype in place; a Tensor's dtype is fixed in gradstep, so the
    converted tensor is returned."""
    if isinstance(self, Parameter):
        Parameter._cpp_set_data(self, self.astype(dtype))
        return self
    return self.astype(dtype)


@method
def fill(self, value):
    if isinstance(value, Tensor):
        value = value.asnumpy().item()
    return ops.full(tuple(self.shape), value, dtype=self.dtype)


@method
def fills(self, value):
    return fill(self, value)


@method
def zero_(self):
    """Sets every element to 0 in place; returns the tensor."""
    if self.size:
        self[...] = 0
    return self


@method
def fill_(self, value):
    if self.size:
        self[...] = value
    return self


@method
def new_zeros(self, size, *, dtype=None):
    return ops.zeros(tuple(size) if isinstance(size, (tuple, list)) else (size,), dtype or self.dtype)


@method
def new_ones(self, size, *, dtype=None):
    return ops.ones(tuple(size) if isinstance(size, (tuple, list)) else (size,), dtype or self.dtype)


@method
def new_full(self, size, fill_value, *, dtype=None):
    return ops.full(tuple(size), fill_value, dtype=dtype or self.dtype)


@method
def assign_value(self, value):
    """Replaces the tensor's value in place (same shape)."""
    if isinstance(self, Parameter):
        Parameter._cpp_set_data(self, value if isinstance(value, Tensor) else Tensor(value), False)
    else:
        self[...] = value
    return self


@method
def copy_(self, value):
    return assign_value(self, value)


@method
def detach(self):
    return ops.stop_gradient(self)


def _strides(self):
    steps = [self.itemsize]
    for d in reversed(tuple(self.shape)[1:]):
        steps.append(steps[-1] * d)
    return tuple(reversed(steps)) if self.ndim else ()


def from_numpy(array):
    """A Tensor of a NumPy array's values."""
    return Tensor(np.ascontiguousarray(array))


# ---------------------------------------------------------------- operators the binding lacks
def _rop(fn):
    return lambda self, other: fn(U.as_tensor(other, like=self), self)


_operators = {
    "__floordiv__": lambda self, other: ops.floor_div(self, other),
    "__rfloordiv__": _rop(ops.floor_div),
    "__mod__": lambda self, other: ops.floor_mod(self, other),
    "__rmod__": _rop(ops.floor_mod),
    "__invert__": lambda self: ops.logical_not(self),
    # &, |, ^ are MindSpore's BitwiseAnd / Or / Xor: bit by bit on integers, logical on bools
    "__and__": lambda self, other: ops.bitwise_and(self, U.as_tensor(other, like=self)),
    "__rand__": lambda self, other: ops.bitwise_and(U.as_tensor(other, like=self), self),
    "__or__": lambda self, other: ops.bitwise_or(self, U.as_tensor(other, like=self)),
    "__ror__": lambda self, other: ops.bitwise_or(U.as_tensor(other, like=self), self),
    "__xor__": lambda self, other: ops.bitwise_xor(self, U.as_tensor(other, like=self)),
    "__rxor__": lambda self, other: ops.bitwise_xor(U.as_tensor(other, like=self), self),
}


# ---------------------------------------------------------------- copy and pickle
_DTYPES = {"Float32": "float32", "Float64": "float64", "Int32": "int32", "Int64": "int64", "Bool": "bool_",
           "Float16": "float16", "BFloat16": "bfloat16", "Int8": "int8", "Int16": "int16", "UInt8": "uint8",
           "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64"}


def _dtype_named(name):
    return getattr(mstype, _DTYPES.get(name, name.lower()))


def _rebuild_tensor(array, dtype_name):
    return Tensor(array, _dtype_named(dtype_name))


def _rebuild_parameter(array, dtype_name, name, requires_grad):
    return Parameter(Tensor(array, _dtype_named(dtype_name)), name=name, requires_grad=requires_grad)


def _tensor_reduce(self):
    return _rebuild_tensor, (np.array(self.asnumpy()), str(self.dtype))


def _parameter_reduce(self):
    return _rebuild_parameter, (np.array(self.asnumpy()), str(self.dtype), self.name, self.requires_grad)


def _parameter_copy(self):
    return _rebuild_parameter(np.array(self.asnumpy()), str(self.dtype), self.name, self.requires_grad)


def _parameter_deepcopy(self, memo=None):
    out = _parameter_copy(self)
    if memo is not None:
        memo[id(self)] = out
    return out


def _pickles(cls):
    import pickle
    try:
        sample = Tensor(np.zeros(1, np.float32)) if cls is Tensor else Parameter(Tensor(np.zeros(1, np.float32)), name="p")
        again = pickle.loads(pickle.dumps(sample))
        return _builtins.type(again) is cls
    except Exception:  # the binding refuses: install ours
        return False


def _defines(cls, name):
    """Whether the class (not its metaclass: type has __or__) defines name."""
    return _builtins.any(name in vars(k) for k in cls.__mro__ if k is not object)


def _install():
    for name, fn in _methods.items():
        if not _defines(Tensor, name):
            setattr(Tensor, name, fn)
    for name, fn in _operators.items():
        if not _defines(Tensor, name):
            setattr(Tensor, name, fn)
    if not _defines(Tensor, "strides"):
        Tensor.strides = property(_strides)
    if not _defines(Tensor, "from_numpy"):
        Tensor.from_numpy = staticmethod(from_numpy)
    if not _pickles(Tensor):
        Tensor.__reduce__ = _tensor_reduce
        Tensor.__reduce_ex__ = lambda self, protocol: _tensor_reduce(self)
    if not _pickles(Parameter):
        Parameter.__reduce__ = _parameter_reduce
        Parameter.__reduce_ex__ = lambda self, protocol: _parameter_reduce(self)
    import copy
    probe = Parameter(Tensor(np.zeros(1, np.float32)), name="probe")
    if _builtins.type(copy.copy(probe)) is not Parameter:
        Parameter.__copy__ = _parameter_copy
    if _builtins.type(copy.deepcopy(probe)) is not Parameter:
        Parameter.__deepcopy__ = _parameter_deepcopy


_install()
