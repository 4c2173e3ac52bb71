"""More primitive classes of mindspore.ops.operations.math_ops: the Bessel family (BesselI0 ...
BesselY1), BitwiseAnd/Or/Xor, Inv, Invert, Eps, Igamma, Igammac and Zeta over the functions of the
same names, SquareSumAll, MatrixInverse, MatrixPower, ComplexAbs, TridiagonalMatMul, Cross, Median,
SparseSegmentMean, Renorm, RaggedRange, and NMSWithMask (MindSpore's CPU/GPU kernel: boxes sorted
by descending score, greedy suppression of a box whose IOU with a kept higher-scored box exceeds
iou_threshold; output_idx numbers the sorted positions)."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import _binary, _unary, primitive
from mindspore.ops.primitive import Primitive, prim_attr_register

for _name, _fn in (("BesselI0", "bessel_i0"), ("BesselI1", "bessel_i1"), ("BesselI0e", "bessel_i0e"),
                   ("BesselI1e", "bessel_i1e"), ("BesselJ0", "bessel_j0"), ("BesselJ1", "bessel_j1"),
                   ("BesselK0", "bessel_k0"), ("BesselK0e", "bessel_k0e"), ("BesselK1", "bessel_k1"),
                   ("BesselK1e", "bessel_k1e"), ("BesselY0", "bessel_y0"), ("BesselY1", "bessel_y1")):
    _unary(_name, getattr(ops, _fn), "ops.%s, element-wise." % _fn)

_binary("BitwiseAnd", ops.bitwise_and, "Bitwise and of two integer (or bool) tensors.")
_binary("BitwiseOr", ops.bitwise_or, "Bitwise or of two integer (or bool) tensors.")
_binary("BitwiseXor", ops.bitwise_xor, "Bitwise xor of two integer (or bool) tensors.")


@primitive
class SquareSumAll(Primitive):
    """(sum(x ** 2), sum(y ** 2)) as 0-D tensors of x's dtype; x and y have the same shape."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        for name, value in (("x", x), ("y", y)):
            U.check_tensor("SquareSumAll", name, value)
            if value.dtype not in (mstype.float16, mstype.float32):
                raise TypeError("For 'SquareSumAll', the dtype of '%s' must be float16 or float32, but got %s."
                                % (name, value.dtype))
        if tuple(x.shape) != tuple(y.shape):
            raise ValueError("For 'SquareSumAll', the shapes of 'x' and 'y' must be equal, but got %s and %s."
                             % (tuple(x.shape), tuple(y.shape)))
        return ops.sum(ops.square(x)), ops.sum(ops.square(y))


@primitive
class NMSWithMask(Primitive):
    @prim_attr_register
    def __init__(self, iou_threshold=0.5):
        if not isinstance(iou_threshold, float):
            raise TypeError("For 'NMSWithMask', the 'iou_threshold' must be a float, but got %s."
                            % type(iou_threshold).__name__)

    def __call__(self, bboxes):
        op = "NMSWithMask"
        U.check_tensor(op, "bboxes", bboxes)
        if bboxes.dtype not in (mstype.float16, mstype.float32):
            raise TypeError("For '%s', the dtype of 'bboxes' must be float16 or float32, but got %s."
                            % (op, bboxes.dtype))
        if bboxes.ndim != 2 or bboxes.shape[1] != 5 or bboxes.shape[0] <= 0:
            raise ValueError("For '%s', the 'bboxes' must have shape (N, 5) with N > 0, but got %s."
                             % (op, tuple(bboxes.shape)))
        b = U.shape_deciding_values("nms_with_mask", bboxes).astype(np.float64)
        order = np.argsort(-b[:, 4], kind="stable")
        boxes = b[order]
        n = len(boxes)
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        keep = np.ones(n, bool)
        for i in range(n):
            if not keep[i]:
                continue
            w = np.maximum(np.minimum(boxes[i, 2], boxes[i + 1:, 2]) - np.maximum(boxes[i, 0], boxes[i + 1:, 0]), 0)
            h = np.maximum(np.minimum(boxes[i, 3], boxes[i + 1:, 3]) - np.maximum(boxes[i, 1], boxes[i + 1:, 1]), 0)
            inter = w * h
            with np.errstate(divide="ignore", invalid="ignore"):
                iou = inter / (area[i] + area[i + 1:] - inter)
            keep[i + 1:] &= ~(iou > self.iou_threshold)
        return (U.const(boxes, bboxes.dtype), U.const(np.arange(n), mstype.int32), U.const(keep, mstype.bool_))


_unary("Inv", ops.inv, "1 / x, element-wise.")
_unary("Invert", ops.invert, "Bitwise not of an integer tensor.")
_unary("Eps", ops.eps, "A tensor like x filled with the smallest positive normal value of its dtype.")


@primitive
class MatrixInverse(Primitive):
    """The inverse of each square matrix (the conjugate transpose's with adjoint=True)."""

    @prim_attr_register
    def __init__(self, adjoint=False):
        U.check_bool("MatrixInverse", "adjoint", adjoint)

    def __call__(self, x):
        if self.adjoint:
            x = ops.swapaxes(ops.conj(x) if x.dtype in (mstype.complex64, mstype.complex128) else x, -1, -2)
        return ops.inverse(x)


@primitive
class MatrixPower(Primitive):
    """The n-th power of each matrix of a (b, m, m) batch (inverses for a negative n)."""

    @prim_attr_register
    def __init__(self, n):
        U.check_int("MatrixPower", "n", n)

    def __call__(self, x):
        U.check_tensor("MatrixPower", "x", x)
        if x.ndim != 3 or x.shape[1] != x.shape[2]:
            raise ValueError("For 'MatrixPower', the 'x' must be a 3-D tensor of square matrices, but got shape %s."
                             % (tuple(x.shape),))
        return ops.matrix_power(x, self.n)


_binary("Igamma", ops.igamma, "Lower regularized incomplete gamma function P(a, x).")
_binary("Igammac", ops.igammac, "Upper regularized incomplete gamma function Q(a, x).")


@primitive
class ComplexAbs(Primitive):
    """|x| of a complex64 (float32 out) or complex128 (float64 out) tensor."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        U.check_tensor("ComplexAbs", "x", x)
        if x.dtype not in (mstype.complex64, mstype.complex128):
            raise TypeError("For 'ComplexAbs', the dtype of 'x' must be complex64 or complex128, but got %s." % x.dtype)
        return ops.abs(x)


@primitive
class TridiagonalMatMul(Primitive):
    """A @ rhs for the tridiagonal A given by its superdiagonal, main diagonal and subdiagonal
    (each (..., 1, M); the superdiagonal's last and the subdiagonal's first element are unused)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, superdiag, maindiag, subdiag, rhs):
        op = "TridiagonalMatMul"
        for name, value in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag), ("rhs", rhs)):
            U.check_tensor(op, name, value)
            if value.ndim < 2:
                raise ValueError("For '%s', the rank of '%s' must be at least 2, but got %d." % (op, name, value.ndim))
        shape = tuple(maindiag.shape)
        if tuple(superdiag.shape) != shape or tuple(subdiag.shape) != shape or shape[-2] != 1:
            raise ValueError("For '%s', 'superdiag', 'maindiag' and 'subdiag' must all have shape (..., 1, M), "
                             "but got %s, %s and %s." % (op, tuple(superdiag.shape), shape, tuple(subdiag.shape)))
        m = shape[-1]
        if rhs.shape[-2] != m or tuple(rhs.shape[:-2]) != shape[:-2]:
            raise ValueError("For '%s', the 'rhs' must have shape %s, but got %s."
                             % (op, shape[:-2] + (m, "N"), tuple(rhs.shape)))
        col = lambda d: ops.swapaxes(d, -1, -2)  # noqa: E731  (..., M, 1)
        out = col(maindiag) * rhs
        if m > 1:
            below = ops.narrow(rhs, -2, 1, m - 1) * ops.narrow(col(superdiag), -2, 0, m - 1)
            above = ops.narrow(rhs, -2, 0, m - 1) * ops.narrow(col(subdiag), -2, 1, m - 1)
            zero = ops.zeros_like(ops.narrow(rhs, -2, 0, 1))
            out = out + ops.cat((below, zero), -2) + ops.cat((zero, above), -2)
        return out


_binary("Zeta", ops.zeta, "The Hurwitz zeta function zeta(x, q).")


@primitive
class Cross(Primitive):
    """The cross product along `dim` (the default -65530: the first dimension of size 3)."""

    @prim_attr_register
    def __init__(self, dim=-65530):
        U.check_int("Cross", "dim", dim)

    def __call__(self, x1, x2):
        return ops.cross(x1, x2, None if self.dim == -65530 else self.dim)


@primitive
class Median(Primitive):
    """(median, index) along `axis` (the lower median; its index is that of the element chosen), or
    over all elements with global_median (the index is then 0, as MindSpore leaves it meaningless)."""

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        U.check_bool("Median", "global_median", global_median)
        U.check_int("Median", "axis", axis)
        U.check_bool("Median", "keep_dims", keep_dims)
        U.check_bool("Median", "ignore_nan", ignore_nan)

    def __call__(self, x):
        U.check_tensor("Median", "x", x)
        if self.global_median:
            value, _ = ops.median(ops.reshape(x, (-1,)), 0, False)
            return value, ops.zeros((), mstype.int64)
        return ops.median(x, self.axis, self.keep_dims)


@primitive
class SparseSegmentMean(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, indices, segment_ids):
        return ops.sparse_segment_mean(x, indices, segment_ids)


@primitive
class Renorm(Primitive):
    @prim_attr_register
    def __init__(self, p, dim, maxnorm):
        if int(p) <= 0:
            raise ValueError("Renorm op don't support non-positive-norm, but got%s" % (p,))
        U.check_int("Renorm", "p", p)
        U.check_int("Renorm", "dim", dim)
        if not isinstance(maxnorm, float):
            raise TypeError("For 'Renorm', the 'maxnorm' must be a float, but got %s." % type(maxnorm).__name__)

    def __call__(self, x):
        return ops.renorm(x, self.p, self.dim, self.maxnorm)


@primitive
class RaggedRange(Primitive):
    """(rt_nested_splits, rt_dense_values): the ranges arange(starts[i], limits[i], deltas[i])
    concatenated, and the offsets where each begins (dtype Tsplits)."""

    @prim_attr_register
    def __init__(self, Tsplits):
        if Tsplits not in (mstype.int32, mstype.int64):
            raise TypeError("For 'RaggedRange', the 'Tsplits' must be int32 or int64, but got %s." % (Tsplits,))

    def __call__(self, starts, limits, deltas):
        op = "RaggedRange"
        vals = []
        for name, value in (("starts", starts), ("limits", limits), ("deltas", deltas)):
            U.check_tensor(op, name, value)
            if value.ndim > 1:
                raise ValueError("For '%s', the '%s' must be 0-D or 1-D, but got %d-D." % (op, name, value.ndim))
            vals.append(U.shape_deciding_values("ragged_range", value).reshape(-1))
        if not (starts.dtype == limits.dtype == deltas.dtype):
            raise TypeError("For '%s', 'starts', 'limits' and 'deltas' must have the same dtype." % op)
        s, l, d = np.broadcast_arrays(*vals)
        if np.any(d == 0):
            raise ValueError("For '%s', the elements of 'deltas' must not be 0." % op)
        pieces = [np.arange(a, b, c, dtype=s.dtype) for a, b, c in zip(s, l, d)]
        splits = np.concatenate(([0], np.cumsum([len(p) for p in pieces])))
        dense = np.concatenate(pieces) if pieces else np.zeros((0,), s.dtype)
        return U.const(splits, self.Tsplits), U.const(dense, starts.dtype)
