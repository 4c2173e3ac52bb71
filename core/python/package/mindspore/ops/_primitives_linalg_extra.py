"""Linear algebra primitive classes of mindspore.ops.operations.math_ops: MatrixSolve, MatrixSolveLs,
Lu (partial-pivoting LU as LAPACK's getrf, the row permutation given as indices), LuSolve, LuUnpack,
CholeskySolve, Orgqr, MatrixTriangularSolve, TrilIndices, TriuIndices, the gamma-family Lgamma,
Digamma, Polygamma, and Polar, Fmin, Fmax, CompareAndBitpack and STFT, over the functions of the
same meaning."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import _binary, _unary, primitive
from mindspore.ops.primitive import Primitive, prim_attr_register

_unary("Lgamma", ops.lgamma, "log|Gamma(x)|, element-wise.")
_unary("Digamma", ops.digamma, "The derivative of lgamma, element-wise.")
_binary("Polygamma", ops.polygamma, "The a-th derivative of digamma at x (a: a 0-D int tensor).")


@primitive
class MatrixSolve(Primitive):
    """X with matrix @ X = rhs (matrix's adjoint with adjoint=True)."""

    @prim_attr_register
    def __init__(self, adjoint=False):
        U.check_bool("MatrixSolve", "adjoint", adjoint)

    def __call__(self, matrix, rhs):
        return ops.matrix_solve(matrix, rhs, self.adjoint)


@primitive
class MatrixSolveLs(Primitive):
    """The least-squares X of matrix @ X = rhs: with fast=True through the regularized normal
    equations (A^T A + l2 I) X = A^T rhs (A^T's own with more columns than rows); with fast=False the
    minimum-norm SVD solution, l2_regularizer ignored."""

    @prim_attr_register
    def __init__(self, fast=True):
        U.check_bool("MatrixSolveLs", "fast", fast)

    def __call__(self, matrix, rhs, l2_regularizer):
        op = "MatrixSolveLs"
        for name, value in (("matrix", matrix), ("rhs", rhs), ("l2_regularizer", l2_regularizer)):
            U.check_tensor(op, name, value)
        if matrix.ndim < 2 or rhs.ndim < 2 or matrix.shape[-2] != rhs.shape[-2]:
            raise ValueError("For '%s', 'matrix' (*, M, N) and 'rhs' (*, M, K) must match in M, but got %s and %s."
                             % (op, tuple(matrix.shape), tuple(rhs.shape)))
        if matrix.dtype != rhs.dtype:
            raise TypeError("For '%s', 'matrix' and 'rhs' must have the same dtype, but got %s and %s."
                            % (op, matrix.dtype, rhs.dtype))
        if l2_regularizer.dtype != mstype.float64:
            raise TypeError("For '%s', the dtype of 'l2_regularizer' must be float64, but got %s."
                            % (op, l2_regularizer.dtype))
        at = ops.swapaxes(matrix, -1, -2)
        if not self.fast:
            return ops.matmul(ops.pinv(matrix), rhs)
        l2 = l2_regularizer.astype(matrix.dtype)
        m, n = matrix.shape[-2], matrix.shape[-1]
        if m >= n:
            gram = ops.matmul(at, matrix) + l2 * U.const(np.eye(n), matrix.dtype)
            return ops.matmul(ops.inverse(gram), ops.matmul(at, rhs))
        gram = ops.matmul(matrix, at) + l2 * U.const(np.eye(m), matrix.dtype)
        return ops.matmul(at, ops.matmul(ops.inverse(gram), rhs))


@primitive
class Lu(Primitive):
    """(lu, p): L (unit diagonal, below) and U (on and above) packed in one matrix, with
    A[p] = L U; p lists the source row of each row (dtype output_idx_type). No gradient."""

    @prim_attr_register
    def __init__(self, output_idx_type=mstype.int32):
        if output_idx_type not in (mstype.int32, mstype.int64):
            raise TypeError("For 'Lu', the 'output_idx_type' must be int32 or int64, but got %s." % (output_idx_type,))

    def __call__(self, input):
        op = "Lu"
        U.check_tensor(op, "input", input)
        if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
            raise ValueError("For '%s', the 'input' must be square matrices (..., M, M), but got %s."
                             % (op, tuple(input.shape)))
        a = U.shape_deciding_values("lu", input)
        m = a.shape[-1]
        lus, perms = [], []
        for mat in a.reshape((-1, m, m)):
            lu = mat.astype(np.complex128 if np.iscomplexobj(mat) else np.float64).copy()
            perm = np.arange(m)
            for k in range(m):
                piv = k + int(np.argmax(np.abs(lu[k:, k])))
                if piv != k:
                    lu[[k, piv]] = lu[[piv, k]]
                    perm[[k, piv]] = perm[[piv, k]]
                if lu[k, k] != 0:
                    lu[k + 1:, k] /= lu[k, k]
                    lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
            lus.append(lu)
            perms.append(perm)
        return (U.const(np.stack(lus).reshape(a.shape), input.dtype),
                U.const(np.stack(perms).reshape(a.shape[:-1]), self.output_idx_type))


@primitive
class LuSolve(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, lu_data, lu_pivots):
        return ops.lu_solve(x, lu_data, lu_pivots)


@primitive
class LuUnpack(Primitive):
    @prim_attr_register
    def __init__(self, unpack_data=True, unpack_pivots=True):
        U.check_bool("LuUnpack", "unpack_data", unpack_data)
        U.check_bool("LuUnpack", "unpack_pivots", unpack_pivots)

    def __call__(self, LU_data, LU_pivots):
        return ops.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


_binary("Polar", ops.polar, "abs * (cos(angle) + i sin(angle)) as a complex tensor.")
_binary("Fmin", ops.fmin, "Element-wise minimum ignoring NaN (NaN only where both are NaN).")
_binary("Fmax", ops.fmax, "Element-wise maximum ignoring NaN (NaN only where both are NaN).")
_binary("Orgqr", ops.orgqr, "The explicit Q of geqrf's (x, tau).")


@primitive
class CholeskySolve(Primitive):
    @prim_attr_register
    def __init__(self, upper=False):
        U.check_bool("CholeskySolve", "upper", upper)

    def __call__(self, x1, x2):
        return ops.cholesky_solve(x1, x2, self.upper)


class _TriIndices(Primitive):
    _lower = True

    @prim_attr_register
    def __init__(self, row, col, offset=0, dtype=mstype.int32):
        name = type(self).__name__
        U.check_int(name, "row", row, 0)
        U.check_int(name, "col", col, 0)
        U.check_int(name, "offset", offset)
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For '%s', the 'dtype' must be int32 or int64, but got %s." % (name, dtype))

    def __call__(self):
        fn = ops.tril_indices if self._lower else ops.triu_indices
        return fn(self.row, self.col, self.offset, dtype=self.dtype)


@primitive
class TrilIndices(_TriIndices):
    """(2, n) indices of the lower triangle (on and below the `offset` diagonal) of a row x col matrix."""
    _lower = True


@primitive
class TriuIndices(_TriIndices):
    """(2, n) indices of the upper triangle (on and above the `offset` diagonal) of a row x col matrix."""
    _lower = False


@primitive
class MatrixTriangularSolve(Primitive):
    """X with T X = rhs for the lower (or upper) triangle T of `matrix` (its adjoint with adjoint=True);
    the other triangle of `matrix` is not read."""

    @prim_attr_register
    def __init__(self, lower=True, adjoint=False):
        U.check_bool("MatrixTriangularSolve", "lower", lower)
        U.check_bool("MatrixTriangularSolve", "adjoint", adjoint)

    def __call__(self, matrix, rhs):
        op = "MatrixTriangularSolve"
        U.check_tensor(op, "matrix", matrix)
        U.check_tensor(op, "rhs", rhs)
        if matrix.ndim < 2 or matrix.shape[-1] != matrix.shape[-2] or rhs.shape[-2] != matrix.shape[-2]:
            raise ValueError("For '%s', 'matrix' (*, M, M) and 'rhs' (*, M, N) do not match: %s and %s."
                             % (op, tuple(matrix.shape), tuple(rhs.shape)))
        t = ops.tril(matrix) if self.lower else ops.triu(matrix)
        if self.adjoint:
            t = ops.swapaxes(ops.conj(t) if t.dtype in (mstype.complex64, mstype.complex128) else t, -1, -2)
        return ops.matmul(ops.inverse(t), rhs)


@primitive
class CompareAndBitpack(Primitive):
    """x > threshold, packed 8 to a uint8 along the last axis (the first element in the high bit)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, threshold):
        op = "CompareAndBitpack"
        U.check_tensor(op, "x", x)
        U.check_tensor(op, "threshold", threshold)
        if threshold.ndim != 0:
            raise ValueError("For '%s', the 'threshold' must be a 0-D tensor, but got %d-D." % (op, threshold.ndim))
        if x.ndim == 0 or x.shape[-1] % 8:
            raise ValueError("For '%s', the innermost dimension of 'x' must be divisible by 8, but got shape %s."
                             % (op, tuple(x.shape)))
        bits = U.numpy_of(x) > U.numpy_of(threshold)
        return U.const(np.packbits(bits, axis=-1), mstype.uint8)


@primitive
class STFT(Primitive):
    """ops.stft without centering: frames of win_length samples every hop_length, windowed by the
    `window` input."""

    @prim_attr_register
    def __init__(self, n_fft, hop_length, win_length, normalized, onesided, return_complex):
        for name in ("n_fft", "hop_length", "win_length"):
            U.check_int("STFT", name, getattr(self, name))
        for name in ("normalized", "onesided", "return_complex"):
            U.check_bool("STFT", name, getattr(self, name))

    def __call__(self, x, window):
        return ops.stft(x, self.n_fft, self.hop_length, self.win_length, window, center=False,
                        normalized=self.normalized, onesided=self.onesided, return_complex=self.return_complex)
