"""More primitive classes of mindspore.ops.operations.math_ops: the Bessel family (BesselI0 ...
BesselY1), BitwiseAnd/Or/Xor, Inv, Invert, Eps, Igamma and Igammac over the functions of the same
names, SquareSumAll, MatrixInverse, MatrixPower, ComplexAbs, TridiagonalMatMul, and NMSWithMask
(MindSpore's CPU/GPU kernel: boxes sorted by descending score, greedy suppression of a box whose
IOU with a kept higher-scored box exceeds iou_threshold; output_idx numbers the sorted positions)."""
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
