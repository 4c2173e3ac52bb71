"""Elementwise math, activations, comparisons and reductions of mindspore.ops that gradstep
composes in Python from its C++ ops (so the debugger shows their nodes and autodiff
differentiates them to any order). Names the C++ module already binds are kept."""
import functools as _functools
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _scalar_like(value, x):
    return U.as_tensor(value, like=x)


# ---------------------------------------------------------------- elementwise
@export(_F)
def floor(input):
    _t("Floor", input)
    if input.dtype not in U._ALL_FLOATS:
        return input
    r = ops.round(input)
    return r - (r > input).astype(input.dtype)


@export(_F)
def ceil(input):
    _t("Ceil", input)
    if input.dtype not in U._ALL_FLOATS:
        return input
    r = ops.round(input)
    return r + (r < input).astype(input.dtype)


@export(_F)
def trunc(input):
    _t("Trunc", input)
    return ops.select(input >= 0, floor(input), ceil(input))


def _div_operands(x, y):
    if not isinstance(x, Tensor):
        x = U.as_tensor(x, like=y)
    if not isinstance(y, Tensor):
        y = U.as_tensor(y, like=x)
    return x, y


@export(_F)
def floor_div(x, y):
    x, y = _div_operands(x, y)
    if x.dtype in U._INTS and y.dtype in U._INTS:
        q = ops.div(x.astype(mstype.float64), y.astype(mstype.float64))
        return floor(q).astype(x.dtype)
    return floor(ops.div(x, y))


@export(_F)
def floor_divide(input, other):
    return floor_div(input, other)


@export(_F)
def floor_mod(x, y):
    x, y = _div_operands(x, y)
    return x - floor_div(x, y) * y


@export(_F)
def remainder(input, other):
    return floor_mod(input, other)


@export(_F)
def fmod(input, other):
    x, y = _div_operands(input, other)
    if x.dtype in U._INTS and y.dtype in U._INTS:
        q = trunc(ops.div(x.astype(mstype.float64), y.astype(mstype.float64))).astype(x.dtype)
    else:
        q = trunc(ops.div(x, y))
    return x - q * y


@export(_F)
def reciprocal(input):
    _t("Reciprocal", input)
    # float16 stays float16, as MindSpore's kernel computes it; integers become float32
    x = input if input.dtype == mstype.float16 else U.to_float(input)
    return ops.div(_scalar_like(1.0, x), x)


@export(_F)
def erfc(input):
    _t("Erfc", input)
    return _scalar_like(1.0, input) - ops.erf(input)


@export(_F)
def expm1(input):
    _t("Expm1", input)
    return ops.exp(input) - 1.0


@export(_F)
def log1p(input):
    _t("Log1p", input)
    return ops.log(input + 1.0)


@export(_F)
def log2(input):
    _t("Log2", input)
    return ops.log(U.to_float(input)) / _math.log(2.0)


@export(_F)
def log10(input):
    _t("Log10", input)
    return ops.log(U.to_float(input)) / _math.log(10.0)


@export(_F)
def exp2(input):
    _t("Exp2", input)
    return ops.exp(U.to_float(input) * _math.log(2.0))


@export(_F)
def tan(input):
    _t("Tan", input)
    return ops.sin(input) / ops.cos(input)


@export(_F)
def sinh(input):
    _t("Sinh", input)
    return (ops.exp(input) - ops.exp(-input)) * 0.5


@export(_F)
def cosh(input):
    _t("Cosh", input)
    return (ops.exp(input) + ops.exp(-input)) * 0.5


@export(_F)
def xlogy(input, other):
    x, y = _div_operands(input, other)
    safe = ops.select(x == 0, ops.ones_like(y), y)
    return ops.select(x == 0, ops.zeros_like(x * y), x * ops.log(safe))


@export(_F)
def lerp(input, end, weight):
    return input + (end - input) * weight


@export(_F)
def addcmul(input, tensor1, tensor2, value=1):
    return input + tensor1 * tensor2 * value


@export(_F)
def addcdiv(input, tensor1, tensor2, value=1):
    return input + tensor1 / tensor2 * value


@export(_F)
def square(input):
    return input * input


@export(_F)
def logaddexp(input, other):
    m = ops.stop_gradient(ops.maximum(input, other))
    m = ops.select(isfinite(m), m, ops.zeros_like(m))
    return ops.log(ops.exp(input - m) + ops.exp(other - m)) + m


# ---------------------------------------------------------------- activations
@export(_F)
def softsign(x):
    _t("Softsign", x, "x")
    return x / (ops.abs(x) + 1.0)


@export(_F)
def elu(input_x, alpha=1.0):
    _t("Elu", input_x, "input_x")
    neg = (ops.exp(ops.minimum(input_x, _scalar_like(0.0, input_x))) - 1.0) * alpha
    return ops.select(input_x > 0, input_x, neg)


@export(_F)
def selu(input_x):
    _t("SeLU", input_x, "input_x")
    scale = 1.0507009873554804934193349852946
    alpha = 1.6732632423543772848170429916717
    if input_x.dtype in (mstype.int8, mstype.int32):
        # MindSpore's CPU kernel takes int8 / int32 too: computed in float, truncated back
        return (elu(input_x.astype(mstype.float32), alpha) * scale).astype(input_x.dtype)
    return elu(input_x, alpha) * scale


@export(_F)
def celu(x, alpha=1.0):
    _t("CeLU", x, "x")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError("For 'CeLU', the 'alpha' must be a float, but got %s." % type(alpha).__name__)
    if alpha == 0:
        raise ValueError("For 'CeLU', the 'alpha' must not be 0.")
    zero = _scalar_like(0.0, x)
    return ops.maximum(x, zero) + ops.minimum(zero, (ops.exp(ops.minimum(x, zero) / alpha) - 1.0) * alpha)


@export(_F)
def silu(x):
    _t("SiLU", x, "x")
    if x.dtype in (mstype.float16, mstype.float32, mstype.float64):
        return ops._silu(x)  # one SiLU node (fused kernel), one SiLUGrad node backward
    return x * ops.sigmoid(x)


@export(_F)
def mish(x):
    _t("Mish", x, "x")
    return x * ops.tanh(_softplus(x))


def _softplus(x, beta=1, threshold=20):
    bx = x * beta
    safe = ops.minimum(bx, _scalar_like(float(threshold), bx))
    soft = ops.log(ops.exp(safe) + 1.0) / beta
    return ops.select(bx > threshold, x, soft)


@export(_F)
def hardswish(x):
    _t("HSwish", x, "x")
    return x * relu6(x + 3.0) / 6.0


@export(_F)
def hardsigmoid(input):
    _t("HSigmoid", input)
    return relu6(input + 3.0) / 6.0


@export(_F)
def hardtanh(input, min_val=-1.0, max_val=1.0):
    _t("Hardtanh", input)
    if min_val > max_val:
        raise ValueError("For 'Hardtanh', the 'max_val' must be greater than or equal to 'min_val', "
                         "but got min_val=%s, max_val=%s." % (min_val, max_val))
    return ops.clamp(input, min_val, max_val)


@export(_F)
def relu6(x):
    _t("ReLU6", x, "x")
    return ops.clamp(x, 0.0, 6.0) if x.dtype in U._FLOATS else ops.clamp(x, 0, 6)


@export(_F)
def hardshrink(x, lambd=0.5):
    return ops.select(ops.abs(x) > lambd, x, ops.zeros_like(x))


@export(_F)
def softshrink(x, lambd=0.5):
    return ops.select(x > lambd, x - lambd, ops.select(x < -lambd, x + lambd, ops.zeros_like(x)))


@export(_F)
def logsigmoid(x):
    _t("LogSigmoid", x, "x")
    # -softplus(-x), stable for large |x|.
    return -_softplus(-x)


@export(_F)
def prelu(x, weight):
    _t("PReLU", x, "x")
    _t("PReLU", weight, "weight")
    w = weight
    if x.ndim >= 2 and w.ndim == 1 and w.shape[0] > 1:
        if w.shape[0] != x.shape[1]:
            raise ValueError("For 'PReLU', the length of 'weight' must be equal to the number of channels "
                             "of 'x' (%d), but got %d." % (x.shape[1], w.shape[0]))
        w = ops.reshape(w, (w.shape[0],) + (1,) * (x.ndim - 2))
    elif w.size == 1:
        w = ops.reshape(w, ())  # one shared slope: the result keeps x's shape, also for a 0-D x
    return ops.select(x > 0, x, x * w)


@export(_F)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    return ops.select(input >= 0, input, input * ((lower + upper) / 2.0))


@export(_F)
def softmin(x, axis=-1, *, dtype=None):
    if dtype is not None:
        x = x.astype(dtype)
    return ops.softmax(-x, axis)


@export(_F)
def glu(x, axis=-1):
    a, b = ops.split(x, x.shape[axis] // 2, axis)
    return a * ops.sigmoid(b)


@export(_F)
def fast_gelu(x):
    _t("FastGeLU", x, "x")
    # x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))
    ax = ops.abs(x)
    return x / (ops.exp(ax * -1.702) + 1.0) * ops.exp((x - ax) * 0.851)


# ---------------------------------------------------------------- comparison and logic
@export(_F)
def isnan(input):
    _t("IsNan", input)
    if input.dtype not in U._ALL_FLOATS:
        return ops.zeros_like(input, dtype=mstype.bool_)
    return ops.ne(input, input)


@export(_F)
def isinf(input):
    _t("IsInf", input)
    if input.dtype not in U._ALL_FLOATS:
        return ops.zeros_like(input, dtype=mstype.bool_)
    return ops.equal(ops.abs(input), float("inf"))


@export(_F)
def isfinite(x):
    _t("IsFinite", x, "x")
    if x.dtype not in U._ALL_FLOATS:
        return ops.ones_like(x, dtype=mstype.bool_)
    return ops.logical_not(ops.logical_or(isnan(x), isinf(x)))


@export(_F)
def isneginf(input):
    return ops.logical_and(isinf(input), input < 0)


@export(_F)
def isposinf(input):
    return ops.logical_and(isinf(input), input > 0)


@export(_F)
def isreal(input):
    U.check_tensor("isreal", "input", input)
    if input.dtype in (mstype.complex64, mstype.complex128):
        return ops.equal(ops.imag(input), 0)
    return ops.ones_like(input, dtype=mstype.bool_)


@export(_F)
def is_floating_point(input):
    return input.dtype in U._ALL_FLOATS


@export(_F)
def is_tensor(obj):
    return isinstance(obj, Tensor)


@export(_F)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _t("IsClose", input)
    a, b = _div_operands(input, other)
    if a.dtype not in U._FLOATS:
        a = a.astype(mstype.float64)
        b = b.astype(mstype.float64)
    diff = ops.abs(a - b)
    tol = ops.abs(b) * rtol + atol
    out = ops.logical_or(ops.equal(a, b), ops.logical_and(diff <= tol, isfinite(diff)))
    if equal_nan:
        out = ops.logical_or(out, ops.logical_and(isnan(a), isnan(b)))
    return out


@export(_F)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(all(isclose(input, other, rtol, atol, equal_nan)).asnumpy())


@export(_F)
def logical_xor(input, other):
    a = input.astype(mstype.bool_) if isinstance(input, Tensor) else input
    b = other.astype(mstype.bool_) if isinstance(other, Tensor) else other
    return ops.ne(a, b)


@export(_F)
def bitwise_and(input, other):
    # integers combine bit by bit (with bitwise_or / xor in _functional_special.py)
    from mindspore.ops._functional_special import bitwise_and_bits
    return bitwise_and_bits(input, other)


@export(_F)
def equal_count(x, y):
    return ops.equal(x, y).astype(mstype.int32).sum().reshape((1,))


# ---------------------------------------------------------------- reductions
def _reduce_prep(op, x, axis, keep_dims):
    _t(op, x)
    if not isinstance(keep_dims, bool):
        raise TypeError("For '%s', the 'keep_dims' must be a bool, but got %s." % (op, type(keep_dims).__name__))
    if axis is not None and not isinstance(axis, (int, tuple, list)) or isinstance(axis, bool):
        raise TypeError("For '%s', the 'axis' must be one of [int, tuple, list, None], but got %s."
                        % (op, type(axis).__name__))
    if isinstance(axis, (tuple, list)) and axis:
        # a repeated axis reduces once: MindSpore's reduce shape inference dedupes the axes
        return tuple(sorted({U.norm_axis(op, a, x.ndim) for a in axis}))
    return U.norm_axes(op, axis, x.ndim)


def _keep_shape(shape, axes):
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _gather_axes_last(x, axes):
    """x with `axes` flattened into one trailing axis; the shape of the rest."""
    rest = tuple(i for i in range(x.ndim) if i not in axes)
    if tuple(rest) + tuple(axes) != tuple(range(x.ndim)):
        x = ops.transpose(x, rest + tuple(axes))
    rest_shape = tuple(x.shape[: len(rest)])
    k = int(np.prod([x.shape[len(rest) + i] for i in range(len(axes))], dtype=np.int64)) if axes else 1
    return ops.reshape(x, rest_shape + (k,)), rest_shape


def _tree_reduce_last(x, fn, identity):
    """Reduces the last axis with the binary op fn in log2(K) steps (pads with identity)."""
    k = x.shape[-1]
    if k == 0:
        return ops.fill(x.dtype, tuple(x.shape[:-1]), identity)
    while k > 1:
        if k % 2:
            pad = ops.fill(x.dtype, tuple(x.shape[:-1]) + (1,), identity)
            x = ops.concat((x, pad), -1)
            k += 1
        x = ops.reshape(x, tuple(x.shape[:-1]) + (k // 2, 2))
        a, b = ops.split(x, 1, -1)
        x = fn(ops.squeeze(a, -1), ops.squeeze(b, -1))
        k //= 2
    return ops.squeeze(x, -1)


@export(_F)
def prod(input, axis=None, keep_dims=False):
    axes = _reduce_prep("ReduceProd", input, axis, keep_dims)
    x = input.astype(mstype.int64) if input.dtype == mstype.bool_ else input
    if x.ndim == 0:
        return x
    flat, rest = _gather_axes_last(x, axes)
    out = _tree_reduce_last(flat, ops.mul, 1)
    if keep_dims:
        out = ops.reshape(out, _keep_shape(input.shape, axes))
    return out


@export(_F)
def all(input, axis=None, keep_dims=False):
    axes = _reduce_prep("ReduceAll", input, axis, keep_dims)
    as_int = ops.ne(input, 0).astype(mstype.int32) if input.dtype != mstype.bool_ else input.astype(mstype.int32)
    if input.ndim == 0:
        return as_int.astype(mstype.bool_)
    out = ops.amin(as_int, axes, keep_dims)
    return out.astype(mstype.bool_)


@export(_F)
def any(input, axis=None, keep_dims=False):
    axes = _reduce_prep("ReduceAny", input, axis, keep_dims)
    as_int = ops.ne(input, 0).astype(mstype.int32) if input.dtype != mstype.bool_ else input.astype(mstype.int32)
    if input.ndim == 0:
        return as_int.astype(mstype.bool_)
    out = ops.amax(as_int, axes, keep_dims)
    return out.astype(mstype.bool_)


def _ddof(op, ddof):
    if isinstance(ddof, bool):
        return int(ddof)
    if not isinstance(ddof, (int, np.integer)):
        raise TypeError("For '%s', the 'ddof' must be an int or bool, but got %s." % (op, type(ddof).__name__))
    return int(ddof)


def _var(op, input, axis, ddof, keepdims):
    axes = _reduce_prep(op, input, axis, keepdims)
    ddof = _ddof(op, ddof)
    x = U.to_float(input)
    n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64)) if x.ndim else 1
    if x.ndim == 0:
        mean_ = x
        sq = (x - mean_) * (x - mean_)
        return sq / float(max(n - ddof, 0)) if n - ddof > 0 else sq * float("nan")
    mean_ = ops.mean(x, axes, True)
    d = x - mean_
    total = ops.sum(d * d, axes, keepdims)
    denom = n - ddof
    if denom <= 0:
        return total * float("nan")
    return total / float(denom)


@export(_F)
def var(input, axis=None, ddof=0, keepdims=False):
    return _var("var", input, axis, ddof, keepdims)


@export(_F)
def std(input, axis=None, ddof=0, keepdims=False):
    return ops.sqrt(_var("std", input, axis, ddof, keepdims))


@export(_F)
def var_mean(input, axis=None, ddof=0, keepdims=False):
    axes = _reduce_prep("var_mean", input, axis, keepdims)
    return var(input, axis, ddof, keepdims), ops.mean(U.to_float(input), axes, keepdims)


@export(_F)
def std_mean(input, axis=None, ddof=0, keepdims=False):
    axes = _reduce_prep("std_mean", input, axis, keepdims)
    return std(input, axis, ddof, keepdims), ops.mean(U.to_float(input), axes, keepdims)


@export(_F)
def logsumexp(input, axis, keep_dims=False):
    axes = _reduce_prep("logsumexp", input, axis, keep_dims)
    x = U.to_float(input)
    m = ops.stop_gradient(ops.amax(x, axes, True))
    m = ops.select(isfinite(m), m, ops.zeros_like(m))
    out = ops.log(ops.sum(ops.exp(x - m), axes, True)) + m
    if not keep_dims:
        out = ops.reshape(out, tuple(d for i, d in enumerate(x.shape) if i not in axes))
    return out


@export(_F)
def nansum(input, axis=None, keepdims=False, *, dtype=None):
    x = ops.select(isnan(input), ops.zeros_like(input), input) if input.dtype in U._ALL_FLOATS else input
    out = ops.sum(x, axis, keepdims)
    return out.astype(dtype) if dtype is not None else out


@export(_F)
def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    axes = U.norm_axes("count_nonzero", axis, x.ndim)
    nz = ops.ne(x, 0).astype(mstype.int64)
    out = ops.sum(nz, axes, keep_dims) if x.ndim else nz
    return out.astype(dtype)


def _scan(x, axis, fn, identity):
    """Inclusive scan along `axis` with fn, in log2(K) shifted steps (Hillis-Steele). float16 is
    scanned element after element instead, rounding each partial result to float16 as MindSpore's
    kernels do (the tree order of Hillis-Steele rounds differently)."""
    axis = U.norm_axis("cumsum", axis, x.ndim)
    if x.ndim == 0:
        return x
    y, inv = U.move_axis_last(x, axis)
    k = y.shape[-1]
    if y.dtype == mstype.float16 and k > 1:
        parts = ops.split(y, 1, -1)
        out = [parts[0]]
        for part in parts[1:]:
            out.append(fn(out[-1], part))
        return U.restore_axis(ops.concat(out, -1), inv)
    d = 1
    while d < k:
        head, tail = ops.split(y, [k - d, d], -1)
        pad = ops.fill(y.dtype, tuple(y.shape[:-1]) + (d,), identity)
        shifted = ops.concat((pad, head), -1)
        y = fn(y, shifted)
        d *= 2
    return U.restore_axis(y, inv)


@export(_F)
def cumsum(x, axis, dtype=None):
    _t("CumSum", x, "x")
    if axis is None:
        raise ValueError("For 'CumSum', the 'axis' must not be None.")
    if dtype is not None:
        x = x.astype(dtype)
    elif x.dtype == mstype.bool_:
        x = x.astype(mstype.int64)
    return _scan(x, axis, ops.add, 0)


@export(_F)
def cumprod(input, dim, dtype=None):
    _t("CumProd", input)
    if dim is None:
        raise ValueError("For 'CumProd', the 'dim' must not be None.")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError("For 'CumProd', the 'dim' must be an int, but got %s." % type(dim).__name__)
    x = input.astype(dtype) if dtype is not None else input
    return _scan(x, dim, ops.mul, 1)


def _cum_extreme(x, axis, take_max):
    """(running max or min along axis, index of the element it came from), with graph-mode
    tensor ops: a Hillis-Steele scan over (value, index) pairs. The later element wins a tie; a
    NaN wins over numbers and the first NaN over later ones, so the scan stays associative."""
    op = "cummax" if take_max else "cummin"
    axis = U.norm_axis(op, axis, x.ndim)
    if x.ndim == 0:
        return x, U.const(np.zeros((), np.int64), mstype.int64)
    y, inv = U.move_axis_last(x, axis)
    k = y.shape[-1]
    idx = ops.broadcast_to(U.const(np.arange(k, dtype=np.int64), mstype.int64), tuple(y.shape))
    floating = np.issubdtype(U.nptype(x.dtype), np.floating)
    d = 1
    while d < k:
        v_head, _ = ops.split(y, [k - d, d], -1)
        i_head, _ = ops.split(idx, [k - d, d], -1)
        pad_shape = tuple(y.shape[:-1]) + (d,)
        earlier_v = ops.concat((ops.zeros(pad_shape, y.dtype), v_head), -1)
        earlier_i = ops.concat((ops.fill(mstype.int64, pad_shape, -1), i_head), -1)
        later = y >= earlier_v if take_max else y <= earlier_v
        if floating:
            later = (later | ops.isnan(y)) & ~ops.isnan(earlier_v)
        later = later | (earlier_i < 0)   # the padding (index -1) never wins
        y = ops.select(later, y, earlier_v)
        idx = ops.select(later, idx, earlier_i)
        d *= 2
    return U.restore_axis(y, inv), U.restore_axis(idx, inv)


@export(_F)
def cummax(input, axis):
    return _cum_extreme(input, axis, True)


@export(_F)
def cummin(input, axis):
    return _cum_extreme(input, axis, False)


@export(_F)
def cumulative_logsumexp(x, axis, exclusive=False, reverse=False):
    ax = U.norm_axis("CumulativeLogsumexp", axis, x.ndim)
    y = ops.flip(x, (ax,)) if reverse else x
    m = ops.stop_gradient(ops.amax(y))
    out = ops.log(cumsum(ops.exp(y - m), ax)) + m
    if exclusive:
        n = y.shape[ax]
        shape = list(y.shape)
        shape[ax] = 1
        head = ops.narrow(out, ax, 0, n - 1) if n > 1 else None
        # the first exclusive entry is the dtype's lowest finite value, as MindSpore's kernels write
        lowest = float(np.finfo(U.nptype(out.dtype)).min)
        pad = ops.fill(out.dtype, tuple(shape), lowest)
        out = ops.concat((pad, head), ax) if head is not None else pad
    return ops.flip(out, (ax,)) if reverse else out


@export(_F)
def norm_except_dim(v, pow, dim):
    axes = tuple(i for i in range(v.ndim) if i != dim)
    return ops.pow(ops.sum(ops.pow(ops.abs(v), pow), axes, True), 1.0 / pow)


@export(_F)
def aminmax(input, *, axis=0, keepdims=False):
    return ops.amin(input, axis, keepdims), ops.amax(input, axis, keepdims)


@export(_F)
def average(input, axis=None, weights=None):
    if weights is None:
        return ops.mean(input, axis)
    return ops.sum(input * weights, axis) / ops.sum(weights * ops.ones_like(input), axis)


@export(_F)
def median(input, axis=-1, keepdims=False):
    a = U.numpy_of(input)
    ax = U.norm_axis("Median", axis, input.ndim)
    k = (a.shape[ax] - 1) // 2
    idx = np.take(np.argsort(a, axis=ax, kind="stable"), [k], axis=ax)
    import mindspore.ops._functional_array as A
    vals = A.gather_elements(input, ax, U.const(idx, mstype.int64))
    idx_t = U.const(idx, mstype.int64)
    if not keepdims:
        vals = ops.squeeze(vals, ax)
        idx_t = ops.squeeze(idx_t, ax)
    return vals, idx_t


@export(_F)
def nanmedian(input, axis=-1, keepdims=False):
    """The lower median of the values that are not NaN (NaN where a slice has none) and its index."""
    U.check_tensor("nanmedian", "input", input)
    a = U.numpy_of(input)
    ax = U.norm_axis("nanmedian", axis, input.ndim)
    order = np.argsort(a, axis=ax, kind="stable")  # NaNs sort last
    count = np.sum(~np.isnan(a.astype(np.float64)), axis=ax, keepdims=True)
    k = np.maximum(count - 1, 0) // 2
    idx = np.take_along_axis(order, k, axis=ax)
    import mindspore.ops._functional_array as A
    idx_t = U.const(idx, mstype.int64)
    vals = A.gather_elements(input, ax, idx_t)
    if not keepdims:
        vals = ops.squeeze(vals, ax)
        idx_t = ops.squeeze(idx_t, ax)
    return vals, idx_t


@export(_F)
def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean over the values that are not NaN (NaN where a slice has none)."""
    U.check_tensor("nanmean", "input", input)
    if input.dtype not in U._ALL_FLOATS:
        raise TypeError("For 'nanmean', input should be floating point dtype, but got %s." % input.dtype)
    total = nansum(input, axis, keepdims)
    count = ops.sum(ops.logical_not(isnan(input)).astype(input.dtype), axis, keepdims)
    out = total / count
    return out.astype(dtype) if dtype is not None else out


@export(_F)
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return input * beta + ops.matmul(mat1, mat2) * alpha


@export(_F)
def addmv(input, mat, vec, *, beta=1, alpha=1):
    return input * beta + ops.matmul(mat, vec) * alpha


@export(_F)
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return input * beta + ops.sum(ops.bmm(batch1, batch2), 0) * alpha


@export(_F)
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return input * beta + ops.bmm(batch1, batch2) * alpha


@export(_F)
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    return x * beta + outer(vec1, vec2) * alpha


@export(_F)
def outer(input, vec2):
    return ops.reshape(input, (-1, 1)) * ops.reshape(vec2, (1, -1))


@export(_F)
def ger(input, vec2):
    return outer(input, vec2)


@export(_F)
def inner(input, other):
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    return ops.matmul(input, ops.transpose(other, tuple(range(other.ndim - 2)) + (other.ndim - 1, other.ndim - 2))) \
        if other.ndim >= 2 else ops.sum(input * other, -1)


@export(_F)
def vecdot(x, y, *, axis=-1):
    return ops.sum(x * y, axis)


@export(_F)
def dot(input, other):
    """NumPy's dot for rank >= 2: input's last axis against other's second-to-last, the shape
    input.shape[:-1] + other.shape[:-2] + other.shape[-1:] (not matmul's batch broadcasting)."""
    U.check_tensor("dot", "input", input)
    U.check_tensor("dot", "other", other)
    if input.ndim < 2 or other.ndim < 2:
        raise ValueError("For 'dot', inputs x1, x2 should have 'dimension >= 2', but got 'len(x1_shape)': (%d) "
                         "and 'len(x2_shape)': (%d)." % (input.ndim, other.ndim))
    if input.dtype != other.dtype:
        raise TypeError("For 'dot', the inputs must be the same type, but got x1_type: %s and x2_type: %s."
                        % (input.dtype, other.dtype))
    if input.ndim == 2 and other.ndim == 2:
        return ops.matmul(input, other)
    return ops.tensor_dot(input, other, ((input.ndim - 1,), (other.ndim - 2,)))


@export(_F)
def trace(input):
    eye_ = U.const(np.eye(input.shape[0], input.shape[1]), input.dtype)
    return ops.sum(input * eye_)


@export(_F)
def diff(x, n=1, axis=-1, prepend=None, append=None):
    ax = U.norm_axis("diff", axis, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = ops.concat(tuple(parts), ax)
    for _ in range(n):
        k = x.shape[ax]
        a, b = ops.split(x, [1, k - 1], ax)
        c, d = ops.split(x, [k - 1, 1], ax)
        x = b - c
    return x


@export(_F)
def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    if isinstance(x, (tuple, list)):
        total = ops.sqrt(sum(ops.sum(t * t) for t in x))
        scale = ops.minimum(_scalar_like(1.0, total), max_norm / (total + 1e-6))
        return type(x)(t * scale for t in x)
    n = ops.sqrt(ops.sum(x * x))
    return x * ops.minimum(_scalar_like(1.0, n), max_norm / (n + 1e-6))


@export(_F)
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    _t("cosine_similarity", x1, "x1")
    _t("cosine_similarity", x2, "x2")
    w12 = ops.sum(x1 * x2, dim)
    w1 = ops.sum(x1 * x1, dim)
    w2 = ops.sum(x2 * x2, dim)
    n12 = ops.sqrt(ops.maximum(w1 * w2, _scalar_like(eps * eps, w1)))
    return w12 / n12


@export(_F)
def pdist(input, p=2.0):
    n = input.shape[-2]
    rows, cols = np.triu_indices(n, 1)
    a = ops.gather(input, U.const(rows, mstype.int64), input.ndim - 2)
    b = ops.gather(input, U.const(cols, mstype.int64), input.ndim - 2)
    return ops.pow(ops.sum(ops.pow(ops.abs(a - b), p), -1), 1.0 / p)


@export(_F)
def cdist(x1, x2, p=2.0):
    d = ops.expand_dims(x1, -2) - ops.expand_dims(x2, -3)
    if p == 2.0:
        return ops.sqrt(ops.sum(d * d, -1))
    return ops.pow(ops.sum(ops.pow(ops.abs(d), p), -1), 1.0 / p)


@export(_F)
def deg2rad(x):
    return x * (_math.pi / 180.0)


@export(_F)
def rad2deg(x):
    return x * (180.0 / _math.pi)


@export(_F)
def signbit(input):
    return input < 0


@export(_F)
def positive(input):
    return input


@export(_F)
def negative(input):
    return ops.neg(input)


@export(_F)
def subtract(input, other, *, alpha=1):
    return ops.sub(input, other * alpha)


@export(_F)
def multiply(input, other):
    return ops.mul(input, other)


@export(_F)
def divide(input, other, *, rounding_mode=None):
    return ops.div(input, other, rounding_mode=rounding_mode)


@export(_F)
def true_divide(dividend, divisor):
    return ops.div(dividend, divisor)


@export(_F)
def absolute(input):
    return ops.abs(input)


@export(_F)
def clamp_min(input, min):
    return ops.clamp(input, min, None)


@export(_F)
def logit(input, eps=None):
    x = input if eps is None else ops.clamp(input, eps, 1.0 - eps)
    return ops.log(x / (1.0 - x))


@export(_F)
def sqrt(x):
    return ops.sqrt(x)


@export(_F)
def frac(x):
    return x - trunc(x)


@export(_F)
def float_power(input, exponent):
    x = input.astype(mstype.float64) if isinstance(input, Tensor) else input
    e = exponent.astype(mstype.float64) if isinstance(exponent, Tensor) else exponent
    return ops.pow(x, e)


@export(_F)
def heaviside(input, values):
    return ops.select(input > 0, ops.ones_like(input), ops.select(input < 0, ops.zeros_like(input),
                                                                  ops.broadcast_to(values, input.shape)))


# ---------------------------------------------------------------- inverse trigonometric and hyperbolic
def _atan_small(y):
    """atan by its Taylor series, for |y| <= tan(pi/16) ~ 0.2 (error < 1e-17)."""
    y2 = y * y
    acc = None
    for k in range(10, -1, -1):  # Horner over the odd terms up to y^21
        coef = (-1.0) ** k / (2 * k + 1)
        acc = coef if acc is None else acc * y2 + coef
    return y * acc


def _float16_kept(fn):
    """fn (composed of float32 ops here) on a float16 Tensor gives float16, as MindSpore's float16
    kernels do: computed in float32, then rounded."""

    @_functools.wraps(fn)
    def wrapper(input):
        if isinstance(input, Tensor) and input.dtype == mstype.float16:
            return fn(input.astype(mstype.float32)).astype(mstype.float16)
        return fn(input)

    return wrapper


@export(_F)
@_float16_kept
def atan(input):
    """arctan via three half-angle reductions, atan(x) = 2 atan(x / (1 + sqrt(1 + x^2))), then a
    short series: differentiable to any order with gradstep's elementwise ops."""
    _t("Atan", input)
    x = U.to_float(input)
    y = x
    for _ in range(3):
        y = y / (ops.sqrt(y * y + 1.0) + 1.0)
    return _atan_small(y) * 8.0


@export(_F)
@_float16_kept
def asin(input):
    _t("Asin", input)
    x = U.to_float(input)
    inside = ops.abs(x) < 1.0
    safe = ops.select(inside, x, ops.zeros_like(x))
    core = atan(safe / ops.sqrt(1.0 - safe * safe))
    edge = ops.sign(x) * (_math.pi / 2)
    out = ops.select(inside, core, edge)
    return ops.select(ops.abs(x) > 1.0, ops.full_like(x, float("nan")), out)


@export(_F)
@_float16_kept
def acos(input):
    _t("ACos", input)
    return asin(input) * -1.0 + _math.pi / 2


@export(_F)
def atan2(input, other):
    """The angle of (other, input) in (-pi, pi]; float16 inputs give float16, as MindSpore's kernel
    does (computed in float32 here, then rounded)."""
    y, x = _div_operands(input, other)
    if y.dtype == mstype.float16 and x.dtype == mstype.float16:
        return atan2(y.astype(mstype.float32), x.astype(mstype.float32)).astype(mstype.float16)
    y, x = U.to_float(y), U.to_float(x)
    safe_x = ops.select(ops.equal(x, 0), ops.ones_like(x), x)
    base = atan(y / safe_x)
    pi = _math.pi
    upper = ops.select(y >= 0, base + pi, base - pi)  # x < 0
    out = ops.select(x > 0, base, upper)
    axis = ops.select(y > 0, ops.full_like(y, pi / 2), ops.select(y < 0, ops.full_like(y, -pi / 2), ops.zeros_like(y)))
    return ops.select(ops.equal(x, 0), axis, out)


@export(_F)
@_float16_kept
def asinh(input):
    _t("Asinh", input)
    x = U.to_float(input)
    ax = ops.abs(x)
    return ops.sign(x) * ops.log(ax + ops.sqrt(ax * ax + 1.0))


@export(_F)
@_float16_kept
def acosh(input):
    _t("Acosh", input)
    x = U.to_float(input)
    return ops.log(x + ops.sqrt(x * x - 1.0))


@export(_F)
@_float16_kept
def atanh(input):
    _t("Atanh", input)
    x = U.to_float(input)
    return ops.log((x + 1.0) / (1.0 - x)) * 0.5


for _alias, _fn in (("arctan", atan), ("arcsin", asin), ("arccos", acos), ("arctan2", atan2), ("arcsinh", asinh),
                    ("arccosh", acosh), ("arctanh", atanh)):
    U.export_as(_alias, _fn, _F)


# ---------------------------------------------------------------- MindSpore 1.x functional names
def addn(x):
    out = None
    for t in x:
        out = t if out is None else out + t
    return out


for _alias, _fn in (("tensor_add", ops.add), ("tensor_sub", ops.sub), ("tensor_mul", ops.mul),
                    ("tensor_div", ops.div), ("tensor_pow", ops.pow), ("tensor_gt", ops.gt), ("tensor_lt", ops.lt),
                    ("tensor_ge", ops.ge), ("tensor_le", ops.le), ("tensor_floordiv", floor_div),
                    ("tensor_mod", floor_mod), ("tensor_exp", ops.exp), ("tensor_log", ops.log),
                    ("neg_tensor", ops.neg), ("addn", addn), ("accumulate_n", addn), ("floordiv", floor_div),
                    ("floormod", floor_mod), ("pows", ops.pow), ("tensor_expm1", ops.expm1)):
    U.export_as(_alias, _fn, _F)


def _dtype_of(x):
    return x.dtype if isinstance(x, Tensor) else type(x)


def _partial(fn, *args, **kwargs):
    import functools
    return functools.partial(fn, *args, **kwargs)


def _scalar_to_tensor(input_x, dtype=mstype.float32):
    return U.as_tensor(input_x, dtype=dtype)


def _tuple_to_array(input_x):
    a = np.asarray(input_x)
    return U.const(a, mstype.float32 if a.dtype.kind == "f" else mstype.int64)


def _scalar_cast(input_x, input_t):
    return U.nptype(input_t)(input_x).item()


def _isconstant(x):
    return True


for _alias, _fn in (("dtype", _dtype_of), ("typeof", _dtype_of), ("partial", _partial),
                    ("scalar_to_tensor", _scalar_to_tensor), ("tuple_to_array", _tuple_to_array),
                    ("scalar_cast", _scalar_cast), ("isconstant", _isconstant)):
    _fn.__name__ = _alias
    import mindspore.ops.functional as _functional
    if not hasattr(_functional, _alias):
        setattr(_functional, _alias, _fn)
