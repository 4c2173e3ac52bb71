"""Primitive classes of mindspore.ops / mindspore.ops.operations (P) that gradstep writes in
Python over its C++ ops: MindSpore's constructor attributes (recorded by prim_attr_register, so
.attrs and .name work as for the C++ ones) and input / output structures. A name the C++ side
binds is kept."""
import numpy as np

import mindspore
import mindspore.ops as ops
import mindspore.ops._functional_array  # noqa: F401  (registers the functions used below)
import mindspore.ops._functional_math  # noqa: F401
import mindspore.ops._functional_nn  # noqa: F401
import mindspore.ops._functional_random as R
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops.primitive import Primitive, prim_attr_register

_P = "mindspore.ops.operations"
_new = []


def primitive(cls):
    """Registers the class on mindspore.ops and P unless the C++ side binds the name."""
    U.export(_P)(cls)
    _new.append(cls.__name__)
    return cls


def _nargs(self, args, lo, hi=None):
    hi = lo if hi is None else hi
    if len(args) < lo or len(args) > hi:
        raise TypeError("For '%s', the number of inputs must be %s, but got %d."
                        % (self.name, lo if lo == hi else "%d to %d" % (lo, hi), len(args)))


def _unary(name, fn, doc):
    """A primitive class without attributes applying fn to its one input."""

    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, *args):
        _nargs(self, args, 1)
        return fn(args[0])

    return primitive(type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc}))


def _binary(name, fn, doc):
    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, *args):
        _nargs(self, args, 2)
        return fn(args[0], args[1])

    return primitive(type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc}))


# ---------------------------------------------------------------- elementwise and activations
_unary("Erfc", ops.erfc, "1 - erf(x).")
_unary("Floor", ops.floor, "Rounds down.")
_unary("Ceil", ops.ceil, "Rounds up.")
_unary("Round", ops.round, "Rounds half to even.")
_unary("Reciprocal", ops.reciprocal, "1 / x.")
_unary("Expm1", ops.expm1, "exp(x) - 1.")
_unary("Log1p", ops.log1p, "log(1 + x).")
_unary("Tan", ops.tan, "tan(x).")
_unary("Sinh", ops.sinh, "sinh(x).")
_unary("Cosh", ops.cosh, "cosh(x).")
_unary("Softsign", ops.softsign, "x / (1 + |x|).")
_unary("SeLU", ops.selu, "Scaled exponential linear unit.")
_unary("HSwish", ops.hardswish, "Hard swish: x * relu6(x + 3) / 6.")
_unary("HSigmoid", ops.hardsigmoid, "Hard sigmoid: relu6(x + 3) / 6.")
_unary("ReLU6", ops.relu6, "min(max(x, 0), 6).")
_unary("Mish", ops.mish, "x * tanh(softplus(x)).")
_unary("SiLU", ops.silu, "x * sigmoid(x).")
_unary("FastGeLU", ops.fast_gelu, "The fast approximation of GeLU.")
_unary("IsNan", ops.isnan, "Where x is NaN.")
_unary("IsInf", ops.isinf, "Where x is +-inf.")
_unary("IsFinite", ops.isfinite, "Where x is finite.")
_unary("LogicalNot", ops.logical_not, "Logical not.")
_unary("L2Loss", ops.l2_loss, "sum(x ** 2) / 2.")
_unary("Size", ops.size, "The number of elements.")
_unary("Rank", ops.rank, "The number of dimensions.")
_unary("NonZero", ops.nonzero, "The indices of the non-zero elements.")
_unary("LogSigmoid", ops.logsigmoid, "log(sigmoid(x)).")
_binary("FloorDiv", ops.floor_div, "Division rounded down.")
_binary("FloorMod", ops.floor_mod, "Remainder with the sign of the divisor.")
_binary("Mod", ops.fmod, "Remainder with the sign of the dividend.")
_binary("TruncateDiv", lambda x, y: ops.truncate_div(x, y), "Division rounded towards zero (integers stay integers).")
_binary("LogicalAnd", ops.logical_and, "Logical and.")
_binary("LogicalOr", ops.logical_or, "Logical or.")
_binary("LogicalXor", ops.logical_xor, "Logical xor.")
_binary("SquaredDifference", ops.square_difference, "(x - y) ** 2.")
_binary("Xlogy", ops.xlogy, "x * log(y), 0 where x is 0.")
_binary("PReLU", ops.prelu, "max(0, x) + weight * min(0, x).")
_binary("MaskedSelect", ops.masked_select, "The elements where mask is True, as a 1-D tensor.")
_binary("GatherNd", ops.gather_nd, "Gathers slices at N-D indices.")
_binary("Depend", ops.depend, "Returns the value; the second input only orders execution.")
_binary("AssignAdd", ops.assign_add, "variable += value.")
_binary("AssignSub", ops.assign_sub, "variable -= value.")
_binary("Assign", ops.assign, "variable = value.")


@primitive
class DivNoNan(Primitive):
    """x / y, 0 where y is 0."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        x, y = (x if isinstance(x, Tensor) else U.as_tensor(x, like=y)), (y if isinstance(y, Tensor) else U.as_tensor(y, like=x))
        zero = ops.equal(y, 0)
        safe = ops.select(zero, ops.ones_like(y), y)
        q = ops.div(x, safe)
        return ops.select(zero, ops.zeros_like(q), q)


@primitive
class TensorAdd(Primitive):
    """The old name of Add."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        return ops.add(x, y)


@primitive
class GeLU(Primitive):
    """Gaussian error linear unit in MindSpore's primitive form, the tanh approximation
    0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) (ops.gelu defaults to the erf form)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        return ops.gelu(x, approximate="tanh")


@primitive
class Elu(Primitive):
    @prim_attr_register
    def __init__(self, alpha=1.0):
        U.check_number("Elu", "alpha", alpha)
        if alpha != 1.0:
            raise ValueError("For 'Elu', the 'alpha' only supports 1.0, but got %s." % alpha)

    def __call__(self, input_x):
        return ops.elu(input_x, self.alpha)


@primitive
class CeLU(Primitive):
    @prim_attr_register
    def __init__(self, alpha=1.0):
        U.check_number("CeLU", "alpha", alpha)

    def __call__(self, x):
        return ops.celu(x, self.alpha)


@primitive
class LeakyReLU(Primitive):
    @prim_attr_register
    def __init__(self, alpha=0.2):
        U.check_number("LeakyReLU", "alpha", alpha)

    def __call__(self, x):
        return ops.select(x > 0, x, x * self.alpha)


@primitive
class HShrink(Primitive):
    @prim_attr_register
    def __init__(self, lambd=0.5):
        pass

    def __call__(self, input_x):
        return ops.hardshrink(input_x, self.lambd)


@primitive
class SoftShrink(Primitive):
    @prim_attr_register
    def __init__(self, lambd=0.5):
        pass

    def __call__(self, input_x):
        return ops.softshrink(input_x, self.lambd)


@primitive
class IsClose(Primitive):
    @prim_attr_register
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=True):
        pass

    def __call__(self, input, other):
        return ops.isclose(input, other, self.rtol, self.atol, self.equal_nan)


# ---------------------------------------------------------------- shapes
@primitive
class Shape(Primitive):
    """The shape of a tensor, as a tuple."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        U.check_tensor("Shape", "input_x", x)
        return tuple(x.shape)


@primitive
class TensorShape(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        return U.const(np.asarray(x.shape, np.int64), mstype.int64)


@primitive
class DType(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        return x.dtype


@primitive
class Split(Primitive):
    """Splits along axis into output_num equal parts; returns a tuple."""

    @prim_attr_register
    def __init__(self, axis=0, output_num=1):
        U.check_int("Split", "axis", axis)
        U.check_int("Split", "output_num", output_num, 1)

    def __call__(self, x):
        U.check_tensor("Split", "input_x", x)
        ax = U.norm_axis("Split", self.axis, x.ndim)
        n = x.shape[ax]
        if n % self.output_num:
            raise ValueError("For 'Split', the shape of 'input_x' at 'axis' (%d) must be divisible by "
                             "'output_num' (%d)." % (n, self.output_num))
        return tuple(ops.split(x, n // self.output_num, ax))


@primitive
class Unstack(Primitive):
    @prim_attr_register
    def __init__(self, axis=0, num=None):
        pass

    def __call__(self, x):
        return ops.unbind(x, self.axis)


@primitive
class Unpack(Unstack):
    pass


@primitive
class Tril(Primitive):
    @prim_attr_register
    def __init__(self, diagonal=0):
        U.check_int("Tril", "diagonal", diagonal)

    def __call__(self, x):
        return ops.tril(x, self.diagonal)


@primitive
class Triu(Primitive):
    @prim_attr_register
    def __init__(self, diagonal=0):
        U.check_int("Triu", "diagonal", diagonal)

    def __call__(self, x):
        return ops.triu(x, self.diagonal)


@primitive
class Pad(Primitive):
    """Constant zero padding: paddings holds one (before, after) pair per dimension."""

    @prim_attr_register
    def __init__(self, paddings):
        if not isinstance(paddings, tuple):
            raise TypeError("For 'Pad', the 'paddings' must be a tuple, but got %s." % type(paddings).__name__)
        for pair in paddings:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError("For 'Pad', each element of 'paddings' must be a pair, but got %s." % (pair,))
            if any(v < 0 for v in pair):
                raise ValueError("For 'Pad', all elements of 'paddings' must be >= 0, but got %s." % (paddings,))

    def __call__(self, x):
        if len(self.paddings) != x.ndim:
            raise ValueError("For 'Pad', the size of 'paddings' must be equal to the rank of 'input_x' (%d), "
                             "but got %d." % (x.ndim, len(self.paddings)))
        flat = []
        for pair in reversed(self.paddings):
            flat += [int(pair[0]), int(pair[1])]
        return ops.pad(x, tuple(flat))


@primitive
class MirrorPad(Primitive):
    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        U.check_str("MirrorPad", "mode", mode, ("REFLECT", "SYMMETRIC"))

    def __call__(self, x, paddings):
        pads = U.numpy_of(paddings).astype(np.int64)
        flat = []
        for pair in reversed(pads):
            flat += [int(pair[0]), int(pair[1])]
        if self.mode == "REFLECT":
            return ops.pad(x, tuple(flat), "reflect")
        out = x
        for ax in range(x.ndim):
            b, a = int(pads[ax][0]), int(pads[ax][1])
            n = out.shape[ax]
            pos = np.arange(-b, n + a)
            idx = np.where(pos < 0, -pos - 1, np.where(pos >= n, 2 * n - pos - 1, pos))
            out = ops.gather(out, U.const(idx, mstype.int64), ax)
        return out


@primitive
class ReverseV2(Primitive):
    @prim_attr_register
    def __init__(self, axis):
        pass

    def __call__(self, x):
        return ops.flip(x, tuple(self.axis))


@primitive
class Roll(Primitive):
    @prim_attr_register
    def __init__(self, shift, axis):
        pass

    def __call__(self, x):
        return ops.roll(x, self.shift, self.axis)


@primitive
class Slice(Primitive):
    """x[begin : begin + size] per dimension (size -1: to the end)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, begin, size):
        begin = U.shape_tuple("Slice", begin, "begin")
        size = U.shape_tuple("Slice", size, "size")
        if len(begin) != x.ndim or len(size) != x.ndim:
            raise ValueError("For 'Slice', the length of 'begin' and 'size' must be equal to the rank of "
                             "'input_x' (%d), but got %d and %d." % (x.ndim, len(begin), len(size)))
        out = x
        for ax, (b, s) in enumerate(zip(begin, size)):
            n = x.shape[ax]
            s = n - b if s == -1 else s
            if b < 0 or b + s > n:
                raise ValueError("For 'Slice', the slice [%d, %d) is out of the dimension %d of size %d."
                                 % (b, b + s, ax, n))
            if b != 0 or s != n:
                out = ops.gather(out, U.const(np.arange(b, b + s), mstype.int64), ax)
        return out


@primitive
class StridedSlice(Primitive):
    """x[begin:end:strides] with MindSpore's bit masks (begin, end, ellipsis, new_axis,
    shrink_axis)."""

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
            U.check_int("StridedSlice", k, getattr(self, k), 0)

    def __call__(self, x, begin, end, strides):
        begin = U.shape_tuple("StridedSlice", begin, "begin")
        end = U.shape_tuple("StridedSlice", end, "end")
        strides = U.shape_tuple("StridedSlice", strides, "strides")
        if not len(begin) == len(end) == len(strides):
            raise ValueError("For 'StridedSlice', the length of 'begin', 'end' and 'strides' must be the same, "
                             "but got %d, %d and %d." % (len(begin), len(end), len(strides)))
        index = []
        for i, (b, e, s) in enumerate(zip(begin, end, strides)):
            bit = 1 << i
            if self.ellipsis_mask & bit:
                index.append(Ellipsis)
            elif self.new_axis_mask & bit:
                index.append(None)
            elif self.shrink_axis_mask & bit:
                index.append(b)
            else:
                index.append(slice(None if self.begin_mask & bit else b, None if self.end_mask & bit else e, s))
        return _basic_index(x, tuple(index))


def _basic_index(x, index):
    """x[index] for ints, slices, None and Ellipsis, with gathers (differentiable)."""
    if Ellipsis in index:
        i = index.index(Ellipsis)
        used = sum(1 for v in index if v is not None and v is not Ellipsis)
        index = index[:i] + (slice(None),) * (x.ndim - used) + index[i + 1:]
    out = x
    ax = 0
    squeeze = []
    new_axes = []
    pos = 0
    for v in index:
        if v is None:
            new_axes.append(pos)
            pos += 1
            continue
        n = out.shape[ax]
        if isinstance(v, slice):
            idx = np.arange(n)[v]
            if len(idx) != n or (len(idx) and (idx != np.arange(n)).any()):
                out = ops.gather(out, U.const(idx, mstype.int64), ax)
        else:
            k = int(v)
            if k < -n or k >= n:
                raise IndexError("For 'StridedSlice', the index %d is out of bounds for dimension %d of size %d."
                                 % (k, ax, n))
            out = ops.gather(out, U.const(np.array([k % n]), mstype.int64), ax)
            squeeze.append(ax)
        ax += 1
        pos += 1
    if squeeze:
        out = ops.squeeze(out, tuple(squeeze))
    shape = list(out.shape)
    for p in new_axes:
        shape.insert(p - sum(1 for s in squeeze if s < p), 1)
    if new_axes:
        out = ops.reshape(out, tuple(shape))
    return out


@primitive
class Eye(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, n, m, t):
        return ops.eye(n, m, t)


@primitive
class LinSpace(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, start, stop, num):
        return ops.linspace(start, stop, num)


@primitive
class Range(Primitive):
    @prim_attr_register
    def __init__(self, maxlen=1000000):
        pass

    def __call__(self, start, limit, delta):
        return ops.range(start, limit, delta)


@primitive
class Meshgrid(Primitive):
    @prim_attr_register
    def __init__(self, indexing="xy"):
        U.check_str("Meshgrid", "indexing", indexing, ("xy", "ij"))

    def __call__(self, inputs):
        return ops.meshgrid(*inputs, indexing=self.indexing)


@primitive
class ScalarToTensor(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, dtype=mstype.float32):
        return U.as_tensor(input_x, dtype=dtype)


@primitive
class ScalarToArray(ScalarToTensor):
    pass


@primitive
class TupleToArray(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        a = np.asarray(input_x)
        return U.const(a, mstype.float32 if a.dtype.kind == "f" else mstype.int64)


@primitive
class ScalarCast(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, input_t):
        return U.nptype(input_t)(input_x).item()


@primitive
class Einsum(Primitive):
    @prim_attr_register
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError("For 'Einsum', the 'equation' must be a str, but got %s." % type(equation).__name__)

    def __call__(self, x):
        return ops.einsum(self.equation, *x)


# ---------------------------------------------------------------- indexing
@primitive
class GatherD(Primitive):
    """out[i][j] = x[i][index[i][j]] along dim (gather_elements)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, dim, index):
        dim = int(U.numpy_of(dim)) if isinstance(dim, Tensor) else dim
        return ops.gather_elements(x, dim, index)


@primitive
class GatherV2(Primitive):
    @prim_attr_register
    def __init__(self, batch_dims=0):
        pass

    def __call__(self, params, indices, axis):
        return ops.gather(params, indices, axis)


@primitive
class ScatterNd(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, indices, updates, shape):
        return ops.scatter_nd(indices, updates, shape)


@primitive
class TensorScatterUpdate(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.tensor_scatter_update(input_x, indices, updates)


@primitive
class TensorScatterAdd(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.tensor_scatter_add(input_x, indices, updates)


@primitive
class TensorScatterSub(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.tensor_scatter_sub(input_x, indices, updates)


@primitive
class TensorScatterElements(Primitive):
    @prim_attr_register
    def __init__(self, axis=0, reduction="none"):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.tensor_scatter_elements(input_x, indices, updates, self.axis, self.reduction)


@primitive
class ScatterAdd(Primitive):
    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.scatter_add(input_x, indices, updates)


@primitive
class ScatterUpdate(Primitive):
    @prim_attr_register
    def __init__(self, use_locking=True):
        pass

    def __call__(self, input_x, indices, updates):
        return ops.scatter_update(input_x, indices, updates)


@primitive
class UnsortedSegmentSum(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, segment_ids, num_segments):
        return ops.unsorted_segment_sum(input_x, segment_ids, num_segments)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sums the slices of input_x that share a segment id (ids outside [0, num_segments) drop)."""
    n = int(U.numpy_of(num_segments))
    ids = segment_ids.astype(mstype.int64)
    k = ids.ndim
    rows = ops.reshape(input_x, (-1,) + tuple(input_x.shape[k:]))
    flat = ops.reshape(ids, (-1,))
    valid = ops.logical_and(flat >= 0, flat < n)
    flat = ops.select(valid, flat, ops.full(flat.shape, n, dtype=mstype.int64))
    out = ops._functional_array._scatter_rows(n + 1, flat, rows)
    return ops.gather(out, U.const(np.arange(n), mstype.int64), 0)


U.export("mindspore.ops.functional")(unsorted_segment_sum)


@primitive
class MaskedFill(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, mask, value):
        return ops.masked_fill(input, mask, value)


@primitive
class Unique(Primitive):
    """(y, idx): the distinct values in order of first occurrence and where each input element is in y."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        U.check_tensor("Unique", "input_x", input_x)
        if input_x.ndim != 1:
            raise ValueError("For 'Unique', the rank of 'input_x' must be 1, but got %d." % input_x.ndim)
        y, idx = ops.unique(input_x)
        return y, idx.astype(input_x.dtype) if input_x.dtype in U._INTS else idx


@primitive
class TopK(Primitive):
    """(values, indices) of the k largest entries along the last axis."""

    @prim_attr_register
    def __init__(self, sorted=True):
        U.check_bool("TopK", "sorted", sorted)

    def __call__(self, input_x, k):
        k = int(U.numpy_of(k)) if isinstance(k, Tensor) else k
        return ops.topk(input_x, k, None, True, self.sorted)


@primitive
class Sort(Primitive):
    @prim_attr_register
    def __init__(self, axis=-1, descending=False):
        U.check_int("Sort", "axis", axis)
        U.check_bool("Sort", "descending", descending)

    def __call__(self, x):
        return ops.sort(x, self.axis, self.descending)


# ---------------------------------------------------------------- reductions and scans
def _reduce_class(name, fn):
    class Reduce(Primitive):
        @prim_attr_register
        def __init__(self, keep_dims=False):
            U.check_bool(name, "keep_dims", keep_dims)

        def __call__(self, x, axis=()):
            return fn(x, None if axis == () else axis, self.keep_dims)

    Reduce.__name__ = Reduce.__qualname__ = name
    return primitive(Reduce)


_reduce_class("ReduceProd", ops.prod)
_reduce_class("ReduceAll", ops.all)
_reduce_class("ReduceAny", ops.any)


@primitive
class ReduceStd(Primitive):
    @prim_attr_register
    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        pass

    def __call__(self, x):
        axis = None if self.axis in ((), []) else self.axis
        return (ops.std(x, axis, int(self.unbiased), self.keep_dims),
                ops.mean(x, U.norm_axes("ReduceStd", axis, x.ndim), self.keep_dims))


def _reverse(x, axis):
    return ops.flip(x, (axis,))


def _exclusive(x, axis, identity):
    ax = U.norm_axis("Cum", axis, x.ndim)
    n = x.shape[ax]
    shape = list(x.shape)
    shape[ax] = 1
    head = ops.narrow(x, ax, 0, n - 1) if n > 1 else None
    pad = ops.fill(x.dtype, tuple(shape), identity)
    return ops.concat((pad, head), ax) if head is not None else pad


@primitive
class CumSum(Primitive):
    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        U.check_bool("CumSum", "exclusive", exclusive)
        U.check_bool("CumSum", "reverse", reverse)

    def __call__(self, x, axis):
        axis = int(U.numpy_of(axis)) if isinstance(axis, Tensor) else axis
        y = _reverse(x, axis) if self.reverse else x
        if self.exclusive:
            y = _exclusive(y, axis, 0)
        y = ops.cumsum(y, axis)
        return _reverse(y, axis) if self.reverse else y


@primitive
class CumProd(Primitive):
    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        U.check_bool("CumProd", "exclusive", exclusive)
        U.check_bool("CumProd", "reverse", reverse)

    def __call__(self, x, axis):
        axis = int(U.numpy_of(axis)) if isinstance(axis, Tensor) else axis
        y = _reverse(x, axis) if self.reverse else x
        if self.exclusive:
            y = _exclusive(y, axis, 1)
        y = ops.cumprod(y, axis)
        return _reverse(y, axis) if self.reverse else y


U.export_as("Cumsum", CumSum, _P)
U.export_as("Cumprod", CumProd, _P)


# ---------------------------------------------------------------- nn
@primitive
class Dense(Primitive):
    """x @ w.T + b (P.nn_ops.Dense)."""

    @prim_attr_register
    def __init__(self, has_bias=True):
        pass

    def __call__(self, x, w, b=None):
        U.check_tensor("Dense", "x", x)
        U.check_tensor("Dense", "w", w)
        if w.ndim not in (1, 2):
            raise ValueError("For 'Dense', the rank of 'w' must be 1 or 2, but got %d." % w.ndim)
        if x.ndim == 0:
            raise ValueError("For 'Dense', the rank of 'x' must be at least 1, but got 0.")
        k = w.shape[-1]
        if x.shape[-1] != k:
            raise ValueError("For 'Dense', the last dimension of 'x' (%d) must equal the last dimension of "
                             "'w' (%d)." % (x.shape[-1], k))
        dtype = x.dtype
        if dtype not in U._FLOATS and dtype not in mstype.complex_type:
            # integer Dense: exact in float64 for |values| < 2**53
            x, w = x.astype(mstype.float64), w.astype(mstype.float64)
            b = b.astype(mstype.float64) if b is not None else None
        if w.ndim == 1:
            out = ops.sum(x * w, -1)
        elif x.ndim == 1:
            out = ops.squeeze(ops.matmul(ops.reshape(x, (1, k)), ops.transpose(w, (1, 0))), 0)
        else:
            out = ops.matmul(x, ops.transpose(w, (1, 0)))
        if b is not None:
            out = out + b
        return out if out.dtype == dtype else ops.round(out).astype(dtype)


@primitive
class BinaryCrossEntropy(Primitive):
    @prim_attr_register
    def __init__(self, reduction="mean"):
        U.check_reduction("BinaryCrossEntropy", reduction)

    def __call__(self, logits, labels, weight=None):
        return ops.binary_cross_entropy(logits, labels, weight, self.reduction)


@primitive
class BCEWithLogitsLoss(Primitive):
    @prim_attr_register
    def __init__(self, reduction="mean"):
        U.check_reduction("BCEWithLogitsLoss", reduction)

    def __call__(self, logits, label, weight=None, pos_weight=None):
        return ops.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


@primitive
class NLLLoss(Primitive):
    """(loss, total_weight) of log-probabilities (N, C) against class labels (N,)."""

    @prim_attr_register
    def __init__(self, reduction="mean", ignore_index=-100):
        U.check_reduction("NLLLoss", reduction)
        U.check_int("NLLLoss", "ignore_index", ignore_index)

    def __call__(self, logits, labels, weight):
        U.check_tensor("NLLLoss", "logits", logits)
        U.check_tensor("NLLLoss", "labels", labels)
        U.check_tensor("NLLLoss", "weight", weight)
        if logits.ndim != 2:
            raise ValueError("For 'NLLLoss', the rank of 'logits' must be 2, but got %d." % logits.ndim)
        lab = labels.astype(mstype.int64)
        valid = ops.ne(lab, self.ignore_index)
        safe = ops.select(valid, lab, ops.zeros_like(lab))
        picked = ops.squeeze(ops.gather_elements(logits, 1, ops.expand_dims(safe, 1)), 1)
        wt = ops.gather(weight.astype(logits.dtype), safe, 0) * valid.astype(logits.dtype)
        loss = -picked * wt
        total = ops.sum(wt)
        if self.reduction == "none":
            return loss, total
        if self.reduction == "sum":
            return ops.sum(loss), total
        return ops.sum(loss) / total, total


@primitive
class SmoothL1Loss(Primitive):
    @prim_attr_register
    def __init__(self, beta=1.0, reduction="none"):
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise TypeError("For 'SmoothL1Loss', the 'beta' must be a float, but got %s." % type(beta).__name__)
        if beta <= 0:
            raise ValueError("For 'SmoothL1Loss', the 'beta' must be greater than 0, but got %s." % beta)
        U.check_reduction("SmoothL1Loss", reduction)

    def __call__(self, logits, labels):
        if tuple(logits.shape) != tuple(labels.shape):
            raise ValueError("For 'SmoothL1Loss', the shape of 'logits' %s must be the same as the shape of "
                             "'labels' %s." % (tuple(logits.shape), tuple(labels.shape)))
        return ops.smooth_l1_loss(logits, labels, float(self.beta), self.reduction)


@primitive
class KLDivLoss(Primitive):
    @prim_attr_register
    def __init__(self, reduction="mean"):
        U.check_str("KLDivLoss", "reduction", reduction, ("none", "mean", "sum", "batchmean"))

    def __call__(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)


@primitive
class L2Normalize(Primitive):
    @prim_attr_register
    def __init__(self, axis=0, epsilon=1e-4):
        if isinstance(axis, int):
            self.add_prim_attr("axis", [axis])
        U.check_number("L2Normalize", "epsilon", epsilon)

    def __call__(self, x):
        axis = self.axis[0] if isinstance(self.axis, (list, tuple)) and len(self.axis) == 1 else self.axis
        return ops.l2_normalize(x, axis, self.epsilon)


@primitive
class LRN(Primitive):
    """Local response normalization across channels (ops.lrn) of an (N, C, H, W) input."""

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        U.check_int("LRN", "depth_radius", depth_radius, 0)
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(value, float):
                raise TypeError("For 'LRN', the '%s' must be a float, but got %s." % (name, type(value).__name__))
        U.check_str("LRN", "norm_region", norm_region, ("ACROSS_CHANNELS",))

    def __call__(self, x):
        return ops.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


@primitive
class LayerNorm(Primitive):
    """(y, mean, variance) normalised over the axes from begin_norm_axis, scaled by gamma and
    shifted by beta (shaped like the axes from begin_params_axis)."""

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        U.check_int("LayerNorm", "begin_norm_axis", begin_norm_axis)
        U.check_int("LayerNorm", "begin_params_axis", begin_params_axis)
        U.check_number("LayerNorm", "epsilon", epsilon)

    def __call__(self, input_x, gamma, beta):
        nd = input_x.ndim
        a = U.norm_axis("LayerNorm", self.begin_norm_axis, nd, "begin_norm_axis")
        p = U.norm_axis("LayerNorm", self.begin_params_axis, nd, "begin_params_axis")
        params = tuple(input_x.shape[p:])
        if input_x.dtype in (mstype.float16, mstype.float32, mstype.float64) \
                and gamma.dtype == input_x.dtype and beta.dtype == input_x.dtype \
                and gamma.size == beta.size == int(np.prod(params, dtype=np.int64)):
            # One LayerNorm node: (y, mean, variance) from the fused kernel.
            return ops._layer_norm(input_x, ops.reshape(gamma, params), ops.reshape(beta, params), a, p,
                                   float(self.epsilon))
        axes = tuple(range(a, nd))
        mean = ops.mean(input_x, axes, True)
        d = input_x - mean
        var = ops.mean(d * d, axes, True)
        y = d * ops.rsqrt(var + self.epsilon)
        view = (1,) * p + tuple(input_x.shape[p:])
        y = y * ops.reshape(gamma, view) + ops.reshape(beta, view)
        return y, mean, var


@primitive
class BatchNorm(Primitive):
    """(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2). In training the batch
    statistics normalise x and mean / variance (Parameters) are updated with momentum; otherwise
    mean / variance normalise x."""

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        U.check_bool("BatchNorm", "is_training", is_training)
        U.check_number("BatchNorm", "epsilon", epsilon)
        if not 0 <= momentum <= 1:
            raise ValueError("For 'BatchNorm', the 'momentum' must be in range [0, 1], but got %s." % momentum)
        U.check_str("BatchNorm", "data_format", data_format, ("NCHW", "NHWC", "NCDHW"))

    def __call__(self, input_x, scale, bias, mean, variance):
        x = input_x
        if self.data_format == "NHWC":
            x = ops.moveaxis(x, -1, 1)
        c = x.shape[1]
        view = (1, c) + (1,) * (x.ndim - 2)
        axes = (0,) + tuple(range(2, x.ndim))
        if self.is_training:
            bm = ops.mean(x, axes, True)
            d = x - bm
            bv = ops.mean(d * d, axes, True)
            y = d * ops.rsqrt(bv + self.epsilon)
            n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
            bm1 = ops.reshape(bm, (c,))
            bv1 = ops.reshape(bv, (c,))
            unbiased = bv1 * (float(n) / max(n - 1, 1))
            m = self.momentum
            for target, value in ((mean, mean * (1 - m) + bm1 * m), (variance, variance * (1 - m) + unbiased * m)):
                if U.is_parameter(target):
                    U.write_parameter("BatchNorm", target, value)
            saved_mean, saved_var = bm1, bv1
        else:
            y = (x - ops.reshape(mean, view)) * ops.rsqrt(ops.reshape(variance, view) + self.epsilon)
            saved_mean, saved_var = mean, variance
        y = y * ops.reshape(scale, view) + ops.reshape(bias, view)
        if self.data_format == "NHWC":
            y = ops.moveaxis(y, 1, -1)
        return y, saved_mean, saved_var, saved_mean, saved_var


# ---------------------------------------------------------------- random
@primitive
class UniformReal(Primitive):
    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        U.check_int("UniformReal", "seed", seed, 0)
        U.check_int("UniformReal", "seed2", seed2, 0)

    def __call__(self, shape):
        shape = U.shape_tuple("UniformReal", shape)
        return U.const(R._rng("UniformReal", self.seed, self.seed2).random(shape), mstype.float32)


@primitive
class UniformInt(Primitive):
    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        pass

    def __call__(self, shape, minval, maxval):
        shape = U.shape_tuple("UniformInt", shape)
        lo, hi = int(U.numpy_of(minval)), int(U.numpy_of(maxval))
        if lo >= hi:
            raise ValueError("For 'UniformInt', the 'minval' must be less than 'maxval', but got %d and %d." % (lo, hi))
        return U.const(R._rng("UniformInt", self.seed, self.seed2).integers(lo, hi, size=shape), mstype.int32)


@primitive
class StandardNormal(Primitive):
    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        U.check_int("StandardNormal", "seed", seed, 0)
        U.check_int("StandardNormal", "seed2", seed2, 0)

    def __call__(self, shape):
        shape = U.shape_tuple("StandardNormal", shape)
        return U.const(R._rng("StandardNormal", self.seed, self.seed2).standard_normal(shape), mstype.float32)


@primitive
class Multinomial(Primitive):
    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int32):
        pass

    def __call__(self, x, num_samples):
        return ops.multinomial(x, int(U.numpy_of(num_samples)), True, self.seed or None).astype(self.dtype)


@primitive
class Bernoulli(Primitive):
    @prim_attr_register
    def __init__(self, seed=-1, offset=0):
        pass

    def __call__(self, x, p):
        return ops.bernoulli(x, p, None if self.seed < 0 else self.seed)


@primitive
class RandomCategorical(Primitive):
    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        pass

    def __call__(self, logits, num_sample, seed=0):
        return ops.random_categorical(logits, num_sample, seed, self.dtype)


# ---------------------------------------------------------------- 3-D convolution and pooling
import mindspore.ops._functional_pool as _pool  # noqa: E402


def _spatial3(op, name, value, allow5=True):
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(value)
    if len(value) == 3:
        return value
    if allow5 and len(value) == 5:
        return value[2:]
    raise ValueError("For '%s', the '%s' must be an int or a tuple of 3 ints, but got %s." % (op, name, value))


@primitive
class Conv3D(Primitive):
    """3-D convolution of (N, C, D, H, W) by a (out_channel, C / group, kd, kh, kw) weight."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, data_format="NCDHW"):
        U.check_int("Conv3D", "out_channel", out_channel, 1)
        U.check_str("Conv3D", "pad_mode", pad_mode.lower(), ("valid", "same", "pad"))
        U.check_str("Conv3D", "data_format", data_format, ("NCDHW",))
        if pad_mode.lower() != "pad" and pad not in (0, (0,) * 6):
            raise ValueError("For 'Conv3D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got %s." % (pad,))

    def __call__(self, x, weight, bias=None):
        if weight.shape[0] != self.out_channel:
            raise ValueError("For 'Conv3D', the weight's first dimension (%d) must equal 'out_channel' (%d)."
                             % (weight.shape[0], self.out_channel))
        k = _spatial3("Conv3D", "kernel_size", self.kernel_size, False)
        if tuple(weight.shape[2:]) != k:
            raise ValueError("For 'Conv3D', the weight's kernel %s must equal 'kernel_size' %s."
                             % (tuple(weight.shape[2:]), k))
        return _pool.conv3d(x, weight, bias, _spatial3("Conv3D", "stride", self.stride),
                            self.pad_mode, self.pad, _spatial3("Conv3D", "dilation", self.dilation), self.group)


@primitive
class MaxPool3D(Primitive):
    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None, data_format="NCDHW"):
        U.check_str("MaxPool3D", "pad_mode", pad_mode.upper(), ("VALID", "SAME", "PAD"))
        U.check_str("MaxPool3D", "data_format", data_format, ("NCDHW",))

    def __call__(self, x):
        return _pool._pool("MaxPool3D", x, _spatial3("MaxPool3D", "kernel_size", self.kernel_size),
                           _spatial3("MaxPool3D", "strides", self.strides), self.pad_list, 1,
                           bool(self.ceil_mode), 3, "max", self.pad_mode)


@primitive
class AvgPool3D(Primitive):
    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format="NCDHW"):
        U.check_str("AvgPool3D", "pad_mode", pad_mode.lower(), ("valid", "same", "pad"))

    def __call__(self, x):
        return _pool._pool("AvgPool3D", x, _spatial3("AvgPool3D", "kernel_size", self.kernel_size),
                           _spatial3("AvgPool3D", "strides", self.strides), self.pad, 1, self.ceil_mode, 3,
                           "avg", self.pad_mode, self.count_include_pad, self.divisor_override)


# ---------------------------------------------------------------- more elementwise and utility primitives
_unary("Atan", ops.atan, "arctan(x).")
_unary("Asin", ops.asin, "arcsin(x).")
_unary("ACos", ops.acos, "arccos(x).")
_unary("Asinh", ops.asinh, "arcsinh(x).")
_unary("Acosh", ops.acosh, "arccosh(x).")
_unary("Atanh", ops.atanh, "arctanh(x).")
_unary("Trunc", ops.trunc, "Rounds towards zero.")
_unary("Rint", ops.round, "Rounds half to even.")
_binary("Atan2", ops.atan2, "The angle of (x2, x1).")
_binary("Xdivy", lambda x, y: ops.select(ops.equal(x, 0), ops.zeros_like(x * y), ops.div(x, y)), "x / y, 0 where x is 0.")
_binary("Ger", ops.outer, "The outer product of two vectors.")
U.export_as("Acos", ops.ACos, _P)


@primitive
class AddN(Primitive):
    """The sum of a tuple or list of tensors."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, inputs):
        if not isinstance(inputs, (tuple, list)) or not inputs:
            raise TypeError("For 'AddN', the 'inputs' must be a non-empty tuple or list of Tensors, but got %s."
                            % type(inputs).__name__)
        return ops.addn(inputs)


@primitive
class Lerp(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, start, end, weight):
        return ops.lerp(start, end, weight)


@primitive
class IndexAdd(Primitive):
    @prim_attr_register
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        U.check_int("IndexAdd", "axis", axis)

    def __call__(self, input_x, indices, input_y):
        out = ops.index_add(input_x, indices, input_y, self.axis)
        if U.is_parameter(input_x):
            U.write_parameter("IndexAdd", input_x, out)
        return out


@primitive
class SparseGatherV2(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_params, input_indices, axis):
        return ops.gather(input_params, input_indices, axis)


@primitive
class EmbeddingLookup(Primitive):
    """Rows of input_params at input_indices - offset (output shape indices.shape +
    params.shape[1:]); an index outside [0, params.shape[0]) after the offset gives a row of
    zeros, as MindSpore's kernel (one shard of a table split across devices) does."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_params, input_indices, offset):
        U.check_tensor("EmbeddingLookup", "input_params", input_params)
        U.check_tensor("EmbeddingLookup", "input_indices", input_indices)
        U.check_int("EmbeddingLookup", "offset", offset)
        if input_indices.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For 'EmbeddingLookup', the type of 'input_indices' should be Tensor[Int32, Int64], "
                            "but got Tensor[%s]." % input_indices.dtype)
        idx = input_indices - offset
        inside = (idx >= 0) & (idx < input_params.shape[0])
        rows = ops.gather(input_params, ops.select(inside, idx, ops.zeros_like(idx)), 0)
        keep = ops.reshape(inside, tuple(inside.shape) + (1,) * (input_params.ndim - 1))
        return ops.select(ops.broadcast_to(keep, rows.shape), rows, ops.zeros_like(rows))


@primitive
class Diag(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        flat = ops.reshape(input_x, (-1,))
        out = ops.diag(flat)
        return ops.reshape(out, tuple(input_x.shape) * 2)


@primitive
class DepthToSpace(Primitive):
    @prim_attr_register
    def __init__(self, block_size, data_format="NCHW"):
        U.check_int("DepthToSpace", "block_size", block_size, 2)

    def __call__(self, x):
        # TensorFlow's DCR order: output channel c at offset (i, j) is input channel (i*b + j)*C + c
        b = self.block_size
        n, c, h, w = x.shape
        if c % (b * b):
            raise ValueError("For 'DepthToSpace', the channels (%d) must be divisible by block_size**2 (%d)."
                             % (c, b * b))
        y = ops.reshape(x, (n, b, b, c // (b * b), h, w))
        y = ops.transpose(y, (0, 3, 4, 1, 5, 2))
        return ops.reshape(y, (n, c // (b * b), h * b, w * b))


@primitive
class SpaceToDepth(Primitive):
    @prim_attr_register
    def __init__(self, block_size, data_format="NCHW"):
        U.check_int("SpaceToDepth", "block_size", block_size, 2)

    def __call__(self, x):
        b = self.block_size
        n, c, h, w = x.shape
        if h % b or w % b:
            raise ValueError("For 'SpaceToDepth', the height and width (%d, %d) must be divisible by "
                             "block_size (%d)." % (h, w, b))
        y = ops.reshape(x, (n, c, h // b, b, w // b, b))
        y = ops.transpose(y, (0, 3, 5, 1, 2, 4))
        return ops.reshape(y, (n, b * b * c, h // b, w // b))


def _unsorted_segment(name, fn, empty):
    class Segment(Primitive):
        @prim_attr_register
        def __init__(self):
            pass

        def __call__(self, x, segment_ids, num_segments):
            n = int(U.numpy_of(num_segments))
            ids = U.numpy_of(segment_ids).astype(np.int64).reshape(-1)
            k = segment_ids.ndim
            rows = ops.reshape(x, (-1,) + tuple(x.shape[k:]))
            outs = []
            for s in range(n):
                members = np.flatnonzero(ids == s)
                if len(members):
                    outs.append(fn(ops.gather(rows, U.const(members, mstype.int64), 0), 0))
                else:
                    outs.append(ops.full(tuple(x.shape[k:]), empty(x.dtype), dtype=x.dtype))
            return ops.stack(tuple(outs), 0)

    Segment.__name__ = Segment.__qualname__ = name
    return primitive(Segment)


def _lowest(dtype):
    return float(np.finfo(U.nptype(dtype)).min) if dtype in U._FLOATS else int(np.iinfo(U.nptype(dtype)).min)


def _highest(dtype):
    return float(np.finfo(U.nptype(dtype)).max) if dtype in U._FLOATS else int(np.iinfo(U.nptype(dtype)).max)


_unsorted_segment("UnsortedSegmentMax", ops.amax, _lowest)
_unsorted_segment("UnsortedSegmentMin", ops.amin, _highest)
_unsorted_segment("UnsortedSegmentProd", ops.prod, lambda dtype: 1)


@primitive
class ApplyMomentum(Primitive):
    """accumulation = momentum * accumulation + gradient; variable -= lr * accumulation (or the
    Nesterov form); both Parameters are updated in place and the variable is returned."""

    @prim_attr_register
    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        U.check_bool("ApplyMomentum", "use_nesterov", use_nesterov)

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        for name, p in (("variable", variable), ("accumulation", accumulation)):
            if not U.is_parameter(p):
                raise TypeError("For 'ApplyMomentum', the '%s' must be a Parameter, but got %s."
                                % (name, type(p).__name__))
        g = ops.stop_gradient(gradient) * self.gradient_scale if self.gradient_scale != 1.0 else ops.stop_gradient(gradient)
        acc = ops.stop_gradient(accumulation) * momentum + g
        if self.use_nesterov:
            step = (g + acc * momentum) * learning_rate
        else:
            step = acc * learning_rate
        U.write_parameter("ApplyMomentum", accumulation, acc)
        return U.write_parameter("ApplyMomentum", variable, ops.stop_gradient(variable) - step)


@primitive
class Adam(Primitive):
    """The Adam update of MindSpore's Adam primitive: m and v move towards the gradient and its
    square, var -= lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon) (with
    use_nesterov, m replaced by beta1 * m + (1 - beta1) * gradient). var, m and v are Parameters
    updated in place; returns (var, m, v)."""

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        U.check_bool("Adam", "use_locking", use_locking)
        U.check_bool("Adam", "use_nesterov", use_nesterov)

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        for name, p in (("var", var), ("m", m), ("v", v)):
            if not U.is_parameter(p):
                raise TypeError("For 'Adam', the '%s' must be a Parameter, but got %s." % (name, type(p).__name__))
        for name, p in (("m", m), ("v", v), ("gradient", gradient)):
            if tuple(p.shape) != tuple(var.shape):
                raise ValueError("For 'Adam', the shape of '%s' must be the same as the shape of 'var' %s, but got "
                                 "%s." % (name, tuple(var.shape), tuple(p.shape)))
        g = ops.stop_gradient(gradient)
        new_m = ops.stop_gradient(m) + (g - ops.stop_gradient(m)) * (1 - beta1)
        new_v = ops.stop_gradient(v) + (g * g - ops.stop_gradient(v)) * (1 - beta2)
        step_size = lr * ops.sqrt(1 - beta2_power) / (1 - beta1_power)
        direction = new_m * beta1 + g * (1 - beta1) if self.use_nesterov else new_m
        new_var = ops.stop_gradient(var) - step_size * direction / (ops.sqrt(new_v) + epsilon)
        new_m = U.write_parameter("Adam", m, new_m)
        new_v = U.write_parameter("Adam", v, new_v)
        new_var = U.write_parameter("Adam", var, new_var)
        return new_var, new_m, new_v

