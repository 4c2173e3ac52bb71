"""Primitive classes of mindspore.ops.operations.math_ops over the functional forms: Bucketize, Lcm,
Cdist, LpNorm, CumulativeLogsumexp, AccumulateNV2, InplaceAdd, InplaceSub, InplaceUpdateV2,
InplaceIndexAdd, Histogram, HistogramFixedWidth, Hypot, Heaviside, MulNoNan, TruncateMod, Quantile,
ApproximateEqual, EqualCount and FloatStatus. Each checks its attributes at construction, with
MindSpore's messages, and computes in __call__ through the function of the same meaning, so
gradients are those of the functional ops."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


@primitive
class Bucketize(Primitive):
    @prim_attr_register
    def __init__(self, boundaries):
        if not isinstance(boundaries, list):
            raise TypeError("For 'Bucketize', the 'boundaries' must be a list, but got %s."
                            % type(boundaries).__name__)
        for i, b in enumerate(boundaries):
            if not isinstance(b, (float, np.floating)):
                raise TypeError("For 'Bucketize', the 'boundaries[%d]' must be a float, but got %s."
                                % (i, type(b).__name__))

    def __call__(self, input):
        return ops.bucketize(input, [float(b) for b in self.boundaries], right=True)


@primitive
class Lcm(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x1, x2):
        return ops.lcm(x1, x2)


@primitive
class Cdist(Primitive):
    @prim_attr_register
    def __init__(self, p=2.0):
        if not isinstance(p, float):
            raise TypeError("For 'Cdist', the 'p' must be a float, but got %s." % type(p).__name__)
        if p < 0 or np.isnan(p):
            raise ValueError("Cdist p must be a non-negative value, but got `%s`." % p)

    def __call__(self, input_x, input_y):
        return ops.cdist(input_x, input_y, self.p)


@primitive
class LpNorm(Primitive):
    """The p-norm over `axis`, floored at `epsilon` (p = 0 counts the nonzero entries)."""

    @prim_attr_register
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise TypeError("For 'LpNorm', the 'p' must be a non-negative int, but got %s." % (p,))
        if not isinstance(axis, (int, tuple, list)) or isinstance(axis, bool):
            raise TypeError("For 'LpNorm', the 'axis' must be an int, a tuple or a list, but got %s."
                            % type(axis).__name__)
        U.check_bool("LpNorm", "keep_dims", keep_dims)
        if not isinstance(epsilon, float) or epsilon < 0:
            raise TypeError("For 'LpNorm', the 'epsilon' must be a non-negative float, but got %s." % (epsilon,))

    def __call__(self, input):
        U.check_tensor("LpNorm", "input", input)
        axes = (self.axis,) if isinstance(self.axis, int) else tuple(self.axis)
        axes = tuple(U.norm_axis("LpNorm", a, input.ndim) for a in axes)
        if self.p == 0:
            out = ops.sum(ops.ne(input, 0).astype(input.dtype), axes, self.keep_dims)
        else:
            out = ops.pow(ops.sum(ops.pow(ops.abs(input), self.p), axes, self.keep_dims), 1.0 / self.p)
        return ops.maximum(out, U.as_tensor(self.epsilon, like=out))


@primitive
class CumulativeLogsumexp(Primitive):
    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        U.check_bool("CumulativeLogsumexp", "exclusive", exclusive)
        U.check_bool("CumulativeLogsumexp", "reverse", reverse)

    def __call__(self, x, axis=0):
        axis = int(U.numpy_of(axis)) if isinstance(axis, Tensor) else axis
        return ops.cumulative_logsumexp(x, axis, self.exclusive, self.reverse)


@primitive
class AccumulateNV2(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, inputs):
        if not isinstance(inputs, (tuple, list)):
            raise TypeError("For 'AccumulateNV2', the 'inputs' must be a tuple or list of Tensors, but got %s."
                            % type(inputs).__name__)
        return ops.accumulate_n(inputs)


def _indices_attr(op, indices):
    if isinstance(indices, bool) or not isinstance(indices, (int, tuple)):
        raise TypeError("For '%s', the 'indices' must be an int or a tuple, but got %s."
                        % (op, type(indices).__name__))
    indices = (indices,) if isinstance(indices, int) else indices
    for item in indices:
        if isinstance(item, bool) or not isinstance(item, int):
            raise TypeError("For '%s', the 'item of indices' must be an int, but got %s."
                            % (op, type(item).__name__))
    return indices


@primitive
class InplaceAdd(Primitive):
    @prim_attr_register
    def __init__(self, indices):
        self.indices = _indices_attr("InplaceAdd", indices)

    def __call__(self, x, input_v):
        return ops.inplace_add(x, input_v, self.indices)


@primitive
class InplaceSub(Primitive):
    @prim_attr_register
    def __init__(self, indices):
        self.indices = _indices_attr("InplaceSub", indices)

    def __call__(self, x, input_v):
        return ops.inplace_sub(x, input_v, self.indices)


@primitive
class InplaceUpdateV2(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, indices, v):
        return ops.inplace_update(x, v, indices)


@primitive
class InplaceIndexAdd(Primitive):
    @prim_attr_register
    def __init__(self, axis):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError("For 'InplaceIndexAdd', the 'axis' must be an int, but got %s." % type(axis).__name__)

    def __call__(self, var, indices, updates):
        return ops.inplace_index_add(var, indices, updates, self.axis)


@primitive
class Histogram(Primitive):
    """Counts of x in `bins` equal bins over [min, max] (the data's range when both are 0), int32."""

    @prim_attr_register
    def __init__(self, bins=100, min=0.0, max=0.0):  # noqa: A002 (MindSpore's attribute names)
        U.check_int("Histogram", "bins", bins, 1)
        for name, value in (("min", min), ("max", max)):
            if not isinstance(value, float):
                raise TypeError("For 'Histogram', the '%s' must be a float, but got %s." % (name, type(value).__name__))
        if min > max:
            raise ValueError("For 'Histogram', the 'min' must be less than or equal to 'max', but got %s and %s."
                             % (min, max))

    def __call__(self, x):
        return ops.histc(x, self.bins, self.min, self.max).astype(mstype.int32)


@primitive
class HistogramFixedWidth(Primitive):
    """Counts of x in nbins equal bins over range = [lo, hi]: x <= lo counts in the first bin and
    x >= hi in the last one. int32."""

    @prim_attr_register
    def __init__(self, nbins, dtype="int32"):
        U.check_int("HistogramFixedWidth", "nbins", nbins, 1)
        if dtype != "int32":
            raise ValueError("For 'HistogramFixedWidth', the 'dtype' must be 'int32', but got %r." % (dtype,))

    def __call__(self, x, range):  # noqa: A002
        U.check_tensor("HistogramFixedWidth", "x", x)
        U.check_tensor("HistogramFixedWidth", "range", range)
        if tuple(range.shape) != (2,):
            raise ValueError("For 'HistogramFixedWidth', the 'range' must have shape (2,), but got %s."
                             % (tuple(range.shape),))
        xs = ops.reshape(x, (-1,)).astype(mstype.float64)
        lo, hi = range[0].astype(mstype.float64), range[1].astype(mstype.float64)
        idx = ops.floor((xs - lo) / (hi - lo) * float(self.nbins))
        idx = ops.clamp(idx, 0.0, float(self.nbins - 1)).astype(mstype.int32)
        bins = Tensor(np.arange(self.nbins, dtype=np.int32))
        return ops.sum((ops.expand_dims(idx, 1) == bins).astype(mstype.int32), 0).astype(mstype.int32)


@primitive
class Hypot(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x1, x2):
        return ops.hypot(x1, x2)


@primitive
class Heaviside(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, values):
        return ops.heaviside(x, values)


@primitive
class MulNoNan(Primitive):
    """x * y, and 0 wherever y is 0 (even where x is inf or NaN)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        if not isinstance(x, Tensor) and not isinstance(y, Tensor):
            raise TypeError("For 'MulNoNan', at least one of 'x' and 'y' must be a Tensor.")
        prod = ops.mul(x, y)
        yt = y if isinstance(y, Tensor) else U.as_tensor(y, like=prod)
        return ops.where(ops.broadcast_to(yt == 0, prod.shape), ops.zeros_like(prod), prod)


@primitive
class TruncateMod(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        return ops.truncate_mod(x, y)


@primitive
class Quantile(Primitive):
    """ops.quantile (ops.nanquantile with ignore_nan) over `dim` (all elements when None)."""

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        if dim is not None:
            U.check_int("Quantile", "dim", dim)
        U.check_bool("Quantile", "keep_dims", keep_dims)
        U.check_bool("Quantile", "ignore_nan", ignore_nan)

    def __call__(self, input, q):
        fn = ops.nanquantile if self.ignore_nan else ops.quantile
        return fn(input, q, self.dim, self.keep_dims)


@primitive
class ApproximateEqual(Primitive):
    """|x - y| < tolerance, element-wise (bool)."""

    @prim_attr_register
    def __init__(self, tolerance=1e-05):
        if not isinstance(tolerance, float):
            raise TypeError("For 'ApproximateEqual', the 'tolerance' must be a float, but got %s."
                            % type(tolerance).__name__)

    def __call__(self, x, y):
        U.check_tensor("ApproximateEqual", "x", x)
        return ops.abs(ops.sub(x, y)) < self.tolerance


@primitive
class EqualCount(Primitive):
    """The number of equal elements of x and y (same shape), as a (1,) tensor of x's dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        U.check_tensor("EqualCount", "x", x)
        U.check_tensor("EqualCount", "y", y)
        if tuple(x.shape) != tuple(y.shape):
            raise ValueError("For 'EqualCount', the shapes of 'x' and 'y' must be equal, but got %s and %s."
                             % (tuple(x.shape), tuple(y.shape)))
        count = ops.sum((x == y).astype(mstype.int64))
        return ops.reshape(count, (1,)).astype(x.dtype)


@primitive
class FloatStatus(Primitive):
    """[1.] when x holds a NaN or an infinity, else [0.] (shape (1,), float32)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        U.check_tensor("FloatStatus", "x", x)
        if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError("For 'FloatStatus', the dtype of 'x' must be float16, float32 or float64, but got %s."
                            % x.dtype)
        bad = ops.logical_not(ops.isfinite(x)).astype(mstype.float32)
        return ops.reshape(ops.amax(ops.reshape(bad, (-1,)), 0), (1,)) if x.size else ops.zeros((1,), mstype.float32)
