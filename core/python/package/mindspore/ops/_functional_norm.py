"""ops.norm with every `ord` MindSpore documents. The core's norm op (bound in C++) computes the
p-norms with p >= 1 and the Frobenius norm; this wrapper adds the others over differentiable ops:
vectors with inf, -inf, 0 and p < 1 (negative p included), matrices with 1, -1, inf, -inf, 2, -2
and 'nuc' (the last three over the singular values of ops.svd)."""
import numbers

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_core_norm = ops.norm
_INF = float("inf")
_MATRIX_ORDS = (2, -2, 1, -1, _INF, -_INF, "fro", "nuc", None)


def _dims(A, ord, dim):
    """(normalized dims, whether the core op handles the case directly)."""
    if dim is None:
        if ord is None or (ord == "fro" and A.ndim == 2) or (ord == 2 and A.ndim == 1):
            return None, True
        dim = tuple(range(A.ndim))
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if not isinstance(dim, tuple) or not all(isinstance(d, int) for d in dim):
        raise TypeError("For norm, the dim should be int or tuple of int, but got %s." % type(dim).__name__)
    if len(dim) > 2:
        raise ValueError("For norm, the dimensions is out of range.")
    dims = tuple(U.norm_axis("norm", d, A.ndim) for d in dim)
    if len(dims) == 2 and dims[0] == dims[1]:
        raise ValueError("For norm, the elements of dim can not be duplicate.")
    return dims, False


def _keep(ret, A, dims, keepdim):
    if not keepdim:
        return ret
    shape = list(A.shape)
    for d in dims:
        shape[d] = 1
    return ops.reshape(ret, tuple(shape))


def _singular_values(A, rows, cols):
    moved = ops.moveaxis(A, (rows, cols), (-2, -1))
    return ops.svd(moved, compute_uv=False)


def _vector(A, ord, d, keepdim):
    a = ops.abs(A)
    if ord == _INF:
        return ops.amax(a, d, keepdim)
    if ord == -_INF:
        return ops.amin(a, d, keepdim)
    if ord == 0:
        return ops.sum(ops.ne(A, 0).astype(A.dtype), d, keepdim)
    return ops.pow(ops.sum(ops.pow(a, ord), d, keepdim), 1.0 / ord)


def _matrix(A, ord, rows, cols):
    a = ops.abs(A)
    if ord in (1, -1):
        col_sums = ops.sum(a, rows)
        c = cols - 1 if cols > rows else cols
        return ops.amax(col_sums, c) if ord == 1 else ops.amin(col_sums, c)
    if ord in (_INF, -_INF):
        row_sums = ops.sum(a, cols)
        r = rows - 1 if rows > cols else rows
        return ops.amax(row_sums, r) if ord == _INF else ops.amin(row_sums, r)
    s = _singular_values(A, rows, cols)
    if ord == 2:
        return ops.amax(s, -1)
    if ord == -2:
        return ops.amin(s, -1)
    return ops.sum(s, -1)  # 'nuc'


@export(_F, force=True)
def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if not isinstance(A, Tensor):
        return _core_norm(A, ord, dim, keepdim, dtype=dtype)
    if dtype is not None:
        A = A.astype(dtype)
    dims, direct = _dims(A, ord, dim)
    if direct:
        return _core_norm(A, ord, dim, keepdim)
    if len(dims) == 1:
        if isinstance(ord, str):
            raise TypeError("For norm, ord mode can not be str for vectors, but got %s." % ord)
        if ord is None or (isinstance(ord, numbers.Real) and not isinstance(ord, bool) and ord >= 1
                           and ord != _INF):
            return _core_norm(A, ord, dims[0], keepdim)
        return _vector(A, ord, dims[0], keepdim)
    if ord not in _MATRIX_ORDS or isinstance(ord, bool):
        raise ValueError("For norm, the ord mode must be in [2, -2, 1, -1, float('inf'), -float('inf'), 'fro', "
                         "'nuc', None] for matrices, but got %s." % (ord,))
    if ord in (None, "fro"):
        return _core_norm(A, None, dims, keepdim)
    return _keep(_matrix(A, ord, dims[0], dims[1]), A, dims, keepdim)


@export(_F)
def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The vector norm over `axis` (all axes when None): 2, inf, -inf, 0 or any other number p."""
    U.check_tensor("vector_norm", "x", x)
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError("For vector_norm, the ord mode must be in [0, 2, float('inf'), -float('inf')] "
                         "or must be int or float, but got %s." % (ord,))
    if axis is not None and not isinstance(axis, (int, tuple)):
        raise TypeError("For vector_norm , the dim must be tuple or int, but got %s." % type(axis).__name__)
    dims = tuple(range(x.ndim)) if axis is None else (axis,) if isinstance(axis, int) else axis
    dims = tuple(U.norm_axis("vector_norm", d, x.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise ValueError("For vector_norm, the elements of axis can not be duplicate.")
    if dtype is not None:
        x = x.astype(dtype)
    a = ops.abs(x)
    if ord == 2:
        return ops.sqrt(ops.sum(ops.square(a), dims, keepdims))
    if ord == _INF:
        return ops.amax(a, dims, keepdims)
    if ord == -_INF:
        return ops.amin(a, dims, keepdims)
    if ord == 0:
        return ops.sum(ops.ne(x, 0).astype(x.dtype), dims, keepdims)
    return ops.pow(ops.sum(ops.pow(a, ord), dims, keepdims), 1.0 / ord)


@export(_F)
def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """The matrix norm over the two axes `axis`: 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2."""
    U.check_tensor("matrix_norm", "A", A)
    if not isinstance(axis, tuple):
        raise TypeError("For matrix_norm , the axis should be tuple of int, but got %s." % type(axis).__name__)
    if len(axis) != 2:
        raise ValueError("For matrix_norm, the length of axis should be 2, but got %d." % len(axis))
    rows, cols = (U.norm_axis("matrix_norm", d, A.ndim) for d in axis)
    if rows == cols:
        raise ValueError("For matrix_norm, the elements of axis can not be duplicate.")
    if isinstance(ord, bool) or ord not in (2, -2, 1, -1, _INF, -_INF, "fro", "nuc"):
        raise ValueError("For matrix_norm, the ord mode must be in [2, -2, 1, -1, float('inf'), float('-inf'), "
                         "'fro', 'nuc'] but got %s." % (ord,))
    if dtype is not None:
        A = A.astype(dtype)
    if ord == "fro":
        ret = ops.sqrt(ops.sum(ops.square(ops.abs(A)), (rows, cols)))
    else:
        ret = _matrix(A, ord, rows, cols)
    return _keep(ret, A, (rows, cols), keepdims)
