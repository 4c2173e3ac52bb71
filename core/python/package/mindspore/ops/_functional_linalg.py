"""Linear algebra of mindspore.ops (MindSpore 2.2 names).

The factorizations (inverse, det, cholesky, svd, qr, ...) run in NumPy/LAPACK and carry a
first-order backward written with ops (custom_vjp), since gradstep's C++ core has no LAPACK
kernels; everything else is composed of differentiable ops, so it differentiates to any order."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export
from mindspore.ops._transforms import custom_vjp

_F = "mindspore.ops.functional"


def _square(op, x, name="input"):
    U.check_tensor(op, name, x)
    if x.ndim < 2:
        raise ValueError("For '%s', the dimension of '%s' must be at least 2, but got %d." % (op, name, x.ndim))
    if x.shape[-1] != x.shape[-2]:
        raise ValueError("For '%s', the last two dimensions of '%s' must be equal, but got shape %s."
                         % (op, name, tuple(x.shape)))
    if x.dtype not in U._FLOATS:
        raise TypeError("For '%s', the dtype of '%s' must be float32 or float64, but got %s." % (op, name, x.dtype))
    return x


def _const(array, dtype):
    """U.const keeping a 0-D array 0-D (np.ascontiguousarray makes it 1-D)."""
    array = np.asarray(array)
    t = U.const(array, dtype)
    return ops.reshape(t, ()) if array.ndim == 0 else t


def _mT(x):
    return ops.swapaxes(x, -1, -2)


def _lapack(op, fn, *arrays):
    try:
        return fn(*arrays)
    except np.linalg.LinAlgError as e:
        raise ValueError("For '%s', the input matrix is not invertible or not decomposable: %s." % (op, e)) from None


@custom_vjp
def _inverse(a):
    return U.const(_lapack("MatrixInverse", np.linalg.inv, U.shape_deciding_values("inverse", a)), a.dtype)


def _inverse_bwd(a, out, dout):
    t = _mT(out)
    return (-ops.matmul(ops.matmul(t, dout), t),)


_inverse.defbwd(_inverse_bwd)


@export(_F)
def inverse(input):
    _square("MatrixInverse", input)
    return _inverse(input)


@export(_F)
def matrix_solve(matrix, rhs, adjoint=False):
    _square("MatrixSolve", matrix, "matrix")
    U.check_tensor("MatrixSolve", "rhs", rhs)
    if rhs.ndim < 2 or rhs.shape[-2] != matrix.shape[-1]:
        raise ValueError("For 'MatrixSolve', 'rhs' must have shape (..., %d, K), but got %s."
                         % (matrix.shape[-1], tuple(rhs.shape)))
    a = _mT(matrix) if adjoint else matrix
    return ops.matmul(_inverse(a), rhs)


@custom_vjp
def _slogdet(a):
    sign, logabs = np.linalg.slogdet(U.shape_deciding_values("slogdet", a))
    return _const(sign, a.dtype), _const(logabs, a.dtype)


def _slogdet_bwd(a, out, dout):
    # d log|det A| / dA = A^-T; the sign is piecewise constant.
    g = ops.expand_dims(ops.expand_dims(dout[1], -1), -1)
    return (g * _mT(_inverse(a)),)


_slogdet.defbwd(_slogdet_bwd)


@export(_F)
def slogdet(input):
    _square("LogMatrixDeterminant", input)
    return _slogdet(input)


@export(_F)
def det(input):
    _square("MatrixDeterminant", input)
    sign, logabs = _slogdet(input)
    return sign * ops.exp(logabs)


U.export_as("matrix_determinant", det, _F)  # MindSpore's deprecated names
U.export_as("log_matrix_determinant", slogdet, _F)


@export(_F)
def logdet(input):
    """log(det): NaN where the determinant is negative, -inf where it is 0."""
    _square("LogDet", input)
    sign, logabs = _slogdet(input)
    nan = U.const(np.full(tuple(sign.shape), np.nan), input.dtype)
    return ops.select(sign < 0, nan, logabs)


@export(_F)
def matrix_power(input, n):
    _square("MatrixPower", input)
    n = U.check_int("MatrixPower", "n", n)
    base = _inverse(input) if n < 0 else input
    k = abs(n)
    eye = ops.broadcast_to(U.const(np.eye(input.shape[-1]), input.dtype), tuple(input.shape))
    result = None
    while k:
        if k & 1:
            result = base if result is None else ops.matmul(result, base)
        k >>= 1
        if k:
            base = ops.matmul(base, base)
    return eye if result is None else result


@export(_F)
def matrix_exp(input):
    """exp(A) by scaling and squaring of a Taylor series (composed of matmuls: differentiable)."""
    _square("MatrixExp", input)
    norm = float(np.max(np.abs(U.shape_deciding_values("matrix_exp", input)).sum(-1), initial=0.0))
    s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0.5 else 0
    a = input / float(2 ** s)
    n = input.shape[-1]
    eye = ops.broadcast_to(U.const(np.eye(n), input.dtype), tuple(input.shape))
    term, total = eye, eye
    for k in range(1, 19):
        term = ops.matmul(term, a) / float(k)
        total = total + term
    for _ in range(s):
        total = ops.matmul(total, total)
    return total


@custom_vjp
def _cholesky(a):
    return U.const(_lapack("Cholesky", np.linalg.cholesky, U.shape_deciding_values("cholesky", a)), a.dtype)


def _cholesky_bwd(a, out, dout):
    # A = L L^T: Abar = sym(L^-T Phi(L^T Lbar) L^-1), Phi = lower triangle with half diagonal.
    n = out.shape[-1]
    half = U.const(np.tril(np.ones((n, n))) - 0.5 * np.eye(n), out.dtype)
    p = ops.matmul(_mT(out), dout) * half
    linv = _inverse(out)
    s = ops.matmul(ops.matmul(_mT(linv), p), linv)
    return ((s + _mT(s)) * 0.5,)


_cholesky.defbwd(_cholesky_bwd)


@export(_F)
def cholesky(input_x, upper=False):
    _square("Cholesky", input_x, "input_x")
    U.check_bool("Cholesky", "upper", upper)
    low = _cholesky(input_x)
    return _mT(low) if upper else low


@export(_F)
def cholesky_inverse(input_x, upper=False):
    """The inverse of A from its Cholesky factor (A = L L^T, or U^T U when upper)."""
    U.check_tensor("CholeskyInverse", "input_x", input_x)
    if input_x.ndim != 2 or input_x.shape[0] != input_x.shape[1]:
        raise ValueError("For 'CholeskyInverse', the 'input_x' must be a square 2-D matrix, but got shape %s."
                         % (tuple(input_x.shape),))
    f = input_x
    a = ops.matmul(_mT(f), f) if upper else ops.matmul(f, _mT(f))
    return _inverse(a)


@export(_F)
def cholesky_solve(input, input2, upper=False):
    """X with A X = input, A given by its Cholesky factor input2 (A = L L^T, or U^T U when upper);
    2-D or batched 3-D."""
    op = "CholeskySolve"
    U.check_tensor(op, "input", input)
    U.check_tensor(op, "input2", input2)
    U.check_bool(op, "upper", upper)
    if input.ndim not in (2, 3) or input2.ndim != input.ndim or input2.shape[-1] != input2.shape[-2] \
            or input2.shape[-2] != input.shape[-2] or input.shape[:-2] != input2.shape[:-2]:
        raise ValueError("For '%s', 'input' (*, N, M) and 'input2' (*, N, N) must be 2-D or 3-D with matching "
                         "batch and rows, but got %s and %s." % (op, tuple(input.shape), tuple(input2.shape)))
    if input.dtype != input2.dtype:
        raise TypeError("For '%s', 'input' and 'input2' must have the same dtype, but got %s and %s."
                        % (op, input.dtype, input2.dtype))
    f = input2
    a = ops.matmul(_mT(f), f) if upper else ops.matmul(f, _mT(f))
    return ops.matmul(_inverse(a), input)


@custom_vjp
def _svd_vals(a):
    return U.const(np.linalg.svd(U.shape_deciding_values("svd_vals", a), compute_uv=False), a.dtype)


def _svd_vals_bwd(a, out, dout):
    u, _, vh = np.linalg.svd(U.shape_deciding_values("svd_vals_bwd", a), full_matrices=False)
    uu, vv = U.const(u, a.dtype), U.const(vh, a.dtype)
    return (ops.matmul(uu * ops.expand_dims(dout, -2), vv),)


_svd_vals.defbwd(_svd_vals_bwd)


@export(_F)
def svd(input, full_matrices=False, compute_uv=True):
    """(s, u, v) with A = u diag(s) v^T (MindSpore returns v, not v^T). The gradient flows
    through s only (compute_uv=False); u and v are constants."""
    U.check_tensor("Svd", "input", input)
    if input.ndim < 2:
        raise ValueError("For 'Svd', the dimension of 'input' must be at least 2, but got %d." % input.ndim)
    if input.dtype not in U._FLOATS:
        raise TypeError("For 'Svd', the dtype of 'input' must be float32 or float64, but got %s." % input.dtype)
    s = _svd_vals(input)
    if not compute_uv:
        return s
    u, _, vh = np.linalg.svd(U.shape_deciding_values("svd", input), full_matrices=full_matrices)
    return s, U.const(u, input.dtype), U.const(np.swapaxes(vh, -1, -2), input.dtype)


@export(_F)
def qr(input, mode="reduced"):
    """(Q, R) of NumPy's Householder QR; no gradient (constants)."""
    U.check_tensor("Qr", "input", input)
    U.check_str("Qr", "mode", mode, ("reduced", "complete", "r"))
    if input.ndim < 2:
        raise ValueError("For 'Qr', the dimension of 'input' must be at least 2, but got %d." % input.ndim)
    q, r = np.linalg.qr(U.shape_deciding_values("qr", input), mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), U.shape_deciding_values("qr", input).dtype)
    return U.const(q, input.dtype), U.const(r, input.dtype)


@export(_F)
def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """Moore-Penrose pseudo-inverse: singular values at or below max(atol, rtol * s_max) count as 0."""
    U.check_tensor("pinv", "x", x)
    if x.ndim < 2:
        raise ValueError("For 'pinv', the dimension of 'x' must be at least 2, but got %d." % x.ndim)
    a = U.shape_deciding_values("pinv", x)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    smax = s.max(-1, keepdims=True) if s.size else s
    at = 0.0 if atol is None else U.shape_deciding_values("pinv", atol)
    # no tolerance given: rtol = eps * max(M, N); an atol alone means rtol = 0
    if rtol is not None:
        rt = U.shape_deciding_values("pinv", rtol)
    else:
        rt = max(a.shape[-2:]) * np.finfo(a.dtype).eps if atol is None else 0.0
    cut = np.maximum(at, rt * smax)
    sinv = np.where(s > cut, 1.0 / np.where(s == 0, 1, s), 0.0)
    return U.const(np.matmul(np.swapaxes(vh, -1, -2) * sinv[..., None, :], np.swapaxes(u, -1, -2)), x.dtype)


@export(_F)
def lstsq(input, A):
    """Y minimizing ||input Y - A|| (least squares for a tall input, the minimum-norm solution for
    a wide one): input is the (M, N) matrix, A the (M, K) or (M,) right-hand side; Y is (N, K) or
    (N,), as MindSpore documents. Computed by NumPy's SVD-based solver: no gradient."""
    U.check_tensor("Lstsq", "input", input)
    U.check_tensor("Lstsq", "A", A)
    if input.ndim != 2:
        raise ValueError("For 'Lstsq', the dimension of 'input' must be 2, but got %d." % input.ndim)
    if A.ndim not in (1, 2):
        raise ValueError("For 'Lstsq', the dimension of 'A' must be 1 or 2, but got %d." % A.ndim)
    if input.shape[0] != A.shape[0]:
        raise ValueError("For 'Lstsq', 'input' (M, N) and 'A' (M, K) must have the same M, but got %s and %s."
                         % (tuple(input.shape), tuple(A.shape)))
    if input.dtype != A.dtype:
        raise TypeError("For 'Lstsq', 'input' and 'A' must have the same dtype, but got %s and %s."
                        % (input.dtype, A.dtype))
    x, b = U.shape_deciding_values("lstsq", input), U.shape_deciding_values("lstsq", A)
    y, _, _, _ = np.linalg.lstsq(x.astype(np.float64), b.astype(np.float64), rcond=None)
    return _const(y, input.dtype)


@export(_F)
def cross(input, other, dim=None):
    U.check_tensor("Cross", "input", input)
    U.check_tensor("Cross", "other", other)
    if tuple(input.shape) != tuple(other.shape):
        raise ValueError("For 'Cross', 'input' and 'other' must have the same shape, but got %s and %s."
                         % (tuple(input.shape), tuple(other.shape)))
    if dim is None:
        dims = [d for d in range(input.ndim) if input.shape[d] == 3]
        if not dims:
            raise ValueError("For 'Cross', no dimension of the input has size 3: %s." % (tuple(input.shape),))
        dim = dims[0]
    d = U.norm_axis("Cross", dim, input.ndim, "dim")
    if input.shape[d] != 3:
        raise ValueError("For 'Cross', the size of 'input' at dim %d must be 3, but got %d." % (d, input.shape[d]))
    a = ops.unstack(input, d)
    b = ops.unstack(other, d)
    return ops.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]], d)


@export(_F)
def mv(mat, vec):
    U.check_tensor("mv", "mat", mat)
    U.check_tensor("mv", "vec", vec)
    if mat.ndim != 2 or vec.ndim != 1 or mat.shape[1] != vec.shape[0]:
        raise ValueError("For 'mv', 'mat' must be (N, M) and 'vec' (M,), but got %s and %s."
                         % (tuple(mat.shape), tuple(vec.shape)))
    return ops.reshape(ops.matmul(mat, ops.reshape(vec, (-1, 1))), (mat.shape[0],))


@export(_F)
def adjoint(x):
    U.check_tensor("adjoint", "x", x)
    y = _mT(x)
    return ops.conj(y) if x.dtype in (mstype.complex64, mstype.complex128) else y


@export(_F)
def chain_matmul(*inputs):
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    if not inputs:
        raise ValueError("For 'chain_matmul', at least one matrix is required.")
    out = inputs[0]
    for m in inputs[1:]:
        out = ops.matmul(out, m)
    return out


@export(_F)
def block_diag(*inputs):
    mats = []
    for i, t in enumerate(inputs):
        U.check_tensor("block_diag", "inputs[%d]" % i, t)
        if t.ndim > 2:
            raise ValueError("For 'block_diag', each input must have at most 2 dimensions, but inputs[%d] has %d."
                             % (i, t.ndim))
        mats.append(ops.reshape(t, (1, -1)) if t.ndim == 1 else ops.reshape(t, (1, 1)) if t.ndim == 0 else t)
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    dtype = mats[0].dtype
    out, r0, c0 = [], 0, 0
    for m in mats:
        m = m.astype(dtype)
        r, c = m.shape
        out.append(ops.pad(m, (c0, cols - c0 - c, 0, 0)))
        r0, c0 = r0 + r, c0 + c
    return ops.concat(out, 0) if rows else ops.zeros((0, cols), dtype)


@export(_F)
def cov(input, *, correction=1, fweights=None, aweights=None):
    """Covariance of the rows (variables) over the columns (observations)."""
    U.check_tensor("cov", "input", input)
    if input.ndim > 2:
        raise ValueError("For 'cov', the dimension of 'input' must be at most 2, but got %d." % input.ndim)
    x = U.to_float(input)
    x = ops.reshape(x, (1, -1)) if x.ndim < 2 else x
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = U.to_float(fweights).astype(x.dtype)
    if aweights is not None:
        aw = U.to_float(aweights).astype(x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        wsum = float(n)
        mean = ops.mean(x, 1, keep_dims=True)
        xc = x - mean
        denom = wsum - correction
        c = ops.matmul(xc, _mT(xc)) / denom
    else:
        wsum = ops.sum(w)
        mean = ops.sum(x * w, 1, keepdim=True) / wsum
        xc = x - mean
        if correction == 0:
            denom = wsum
        elif aweights is None:
            denom = wsum - correction
        else:
            denom = wsum - correction * ops.sum(w * U.to_float(aweights).astype(x.dtype)) / wsum
        c = ops.matmul(xc * w, _mT(xc)) / denom
    return ops.reshape(c, ()) if input.ndim < 2 else c


@export(_F)
def dist(input, other, p=2):
    U.check_tensor("dist", "input", input)
    U.check_tensor("dist", "other", other)
    d = ops.abs(input - other)
    if p == 0:
        return ops.sum((d != 0).astype(d.dtype))
    if p == float("inf"):
        return ops.amax(d)
    if p == 2:
        return ops.sqrt(ops.sum(d * d))
    return ops.pow(ops.sum(ops.pow(d, float(p))), 1.0 / p)


@export(_F)
def trapz(y, x=None, *, dx=1.0, dim=-1):
    U.check_tensor("trapz", "y", y)
    d = U.norm_axis("trapz", dim, y.ndim, "dim")
    n = y.shape[d]
    lo = ops.narrow(y, d, 0, n - 1)
    hi = ops.narrow(y, d, 1, n - 1)
    if x is None:
        return ops.sum(lo + hi, d) * (0.5 * dx)
    xs = x
    if xs.ndim == 1:
        shape = [1] * y.ndim
        shape[d] = n
        xs = ops.reshape(xs, tuple(shape))
        xd = U.norm_axis("trapz", dim, xs.ndim, "dim")
    else:
        xd = U.norm_axis("trapz", dim, xs.ndim, "dim")
    step = ops.narrow(xs, xd, 1, n - 1) - ops.narrow(xs, xd, 0, n - 1)
    return ops.sum((lo + hi) * step.astype(y.dtype), d) * 0.5


@export(_F)
def vander(x, N=None):
    """Columns x^(N-1), ..., x^0 (decreasing powers, as NumPy)."""
    U.check_tensor("vander", "x", x)
    if x.ndim != 1:
        raise ValueError("For 'vander', the dimension of 'x' must be 1, but got %d." % x.ndim)
    n = x.shape[0] if N is None else U.check_int("vander", "N", N, 0)
    if n == 0:
        return ops.zeros((x.shape[0], 0), x.dtype)
    col = ops.reshape(x, (-1, 1))
    cols = [ops.ones_like(col)]
    for _ in range(n - 1):
        cols.append(cols[-1] * col)
    return ops.concat(cols[::-1], 1)


@export(_F)
def batch_dot(x1, x2, axes=None):
    U.check_tensor("batch_dot", "x1", x1)
    U.check_tensor("batch_dot", "x2", x2)
    if x1.ndim < 2 or x2.ndim < 2:
        raise ValueError("For 'batch_dot', the rank of 'x1' and 'x2' must be at least 2, but got %d and %d."
                         % (x1.ndim, x2.ndim))
    if x1.shape[0] != x2.shape[0]:
        raise ValueError("For 'batch_dot', the batch sizes of 'x1' and 'x2' must be equal, but got %d and %d."
                         % (x1.shape[0], x2.shape[0]))
    if axes is None:
        axes = (x1.ndim - 1, x2.ndim - 2 if x2.ndim > 2 else x2.ndim - 1)
    elif isinstance(axes, int):
        axes = (axes, axes)
    if len(axes) != 2:
        raise ValueError("For 'batch_dot', the 'axes' must be None, an int or a pair, but got %s." % (axes,))
    a1 = U.norm_axis("batch_dot", axes[0], x1.ndim, "axes")
    a2 = U.norm_axis("batch_dot", axes[1], x2.ndim, "axes")
    if a1 == 0 or a2 == 0:
        raise ValueError("For 'batch_dot', the 'axes' must not include the batch dimension 0, but got %s." % (axes,))
    l1 = ops.moveaxis(x1, a1, -1)
    l2 = ops.moveaxis(x2, a2, 1)
    b = x1.shape[0]
    m = l1.shape[-1]
    r1 = tuple(l1.shape[1:-1])
    r2 = tuple(l2.shape[2:])
    out = ops.matmul(ops.reshape(l1, (b, -1, m)), ops.reshape(l2, (b, m, -1)))
    shape = (b,) + r1 + r2
    return ops.reshape(out, shape if len(shape) > 1 else (b, 1))


def _diag_layout(k, rows, cols, align):
    """For each diagonal d in k (high to low) the (row, col) of its i-th element and where it starts."""
    out = []
    for d in range(k[1], k[0] - 1, -1):
        length = min(rows + min(0, d), cols - max(0, d))
        out.append((d, max(0, length)))
    maxlen = max(n for _, n in out) if out else 0
    placed = []
    for d, n in out:
        right = (align in ("RIGHT_LEFT", "RIGHT_RIGHT") and d >= 0) or (align in ("LEFT_RIGHT", "RIGHT_RIGHT") and d < 0)
        offset = maxlen - n if right else 0
        placed.append((d, n, offset))
    return placed, maxlen


def _k_pair(op, k):
    if isinstance(k, Tensor):
        k = U.shape_deciding_values(op, k).reshape(-1).tolist()
    if isinstance(k, (int, np.integer)):
        return int(k), int(k)
    k = [int(v) for v in k]
    if len(k) == 1:
        return k[0], k[0]
    if len(k) != 2 or k[0] > k[1]:
        raise ValueError("For '%s', 'k' must be an int or a pair (low, high) with low <= high, but got %s." % (op, k))
    return k[0], k[1]


@export(_F)
def matrix_diag_part(x, k=0, padding_value=0, align="RIGHT_LEFT"):
    U.check_tensor("MatrixDiagPartV3", "x", x)
    U.check_str("MatrixDiagPartV3", "align", align, ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT"))
    lo, hi = _k_pair("MatrixDiagPartV3", k)
    rows, cols = x.shape[-2], x.shape[-1]
    placed, maxlen = _diag_layout((lo, hi), rows, cols, align)
    src = np.full((len(placed), maxlen), rows * cols, np.int64)
    for j, (d, n, off) in enumerate(placed):
        i = np.arange(n)
        src[j, off:off + n] = (i + max(0, -d)) * cols + i + max(0, d)
    lead = tuple(x.shape[:-2])
    pad = ops.full(lead + (1,), U.shape_deciding_values("matrix_diag_part", padding_value).item(), dtype=x.dtype)
    flat = ops.concat([ops.reshape(x, lead + (rows * cols,)), pad], -1)
    out = ops.gather(flat, U.const(src.reshape(-1), mstype.int64), len(lead))
    out = ops.reshape(out, lead + (len(placed), maxlen))
    return ops.squeeze(out, -2) if lo == hi else out


def _diag_scatter(op, diagonal, lo, hi, rows, cols, align):
    """Flat (rows*cols) positions of the diagonal elements, and their flat index into `diagonal`."""
    placed, maxlen = _diag_layout((lo, hi), rows, cols, align)
    dst, src = [], []
    for j, (d, n, off) in enumerate(placed):
        i = np.arange(n)
        dst.append((i + max(0, -d)) * cols + i + max(0, d))
        src.append(j * maxlen + off + i)
    return np.concatenate(dst).astype(np.int64), np.concatenate(src).astype(np.int64), len(placed), maxlen


def _place_diagonals(op, base, diagonal, lo, hi, align):
    rows, cols = base.shape[-2], base.shape[-1]
    dst, src, nd, maxlen = _diag_scatter(op, diagonal, lo, hi, rows, cols, align)
    lead = tuple(base.shape[:-2])
    diag = diagonal if lo != hi else ops.expand_dims(diagonal, -2)
    if tuple(diag.shape[-2:]) != (nd, maxlen):
        raise ValueError("For '%s', the 'diagonal' must end with shape %s, but got %s."
                         % (op, (nd, maxlen) if lo != hi else (maxlen,), tuple(diagonal.shape)))
    values = ops.gather(ops.reshape(diag, lead + (nd * maxlen,)), U.const(src, mstype.int64), len(lead))
    # a 0/1 placement matrix keeps the map linear in both base and diagonal (differentiable)
    place = np.zeros((len(dst), rows * cols))
    place[np.arange(len(dst)), dst] = 1.0
    keep = U.const(1.0 - place.sum(0), mstype.float64)
    work = base.dtype if base.dtype in U._FLOATS else mstype.float64
    flat = ops.reshape(base, lead + (rows * cols,)).astype(work) * keep.astype(work) \
        + ops.matmul(values.astype(work), U.const(place, work))
    out = ops.reshape(flat, tuple(base.shape))
    return out if work == base.dtype else ops.round(out).astype(base.dtype)


@export(_F)
def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    U.check_tensor("MatrixSetDiagV3", "x", x)
    U.check_tensor("MatrixSetDiagV3", "diagonal", diagonal)
    U.check_str("MatrixSetDiagV3", "align", align, ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT"))
    lo, hi = _k_pair("MatrixSetDiagV3", k)
    return _place_diagonals("MatrixSetDiagV3", x, diagonal.astype(x.dtype), lo, hi, align)


@export(_F)
def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    U.check_tensor("MatrixDiagV3", "x", x)
    U.check_str("MatrixDiagV3", "align", align, ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT"))
    lo, hi = _k_pair("MatrixDiagV3", k)
    maxlen = x.shape[-1]
    rows = int(num_rows) if int(num_rows) > 0 else maxlen - min(hi, 0)
    cols = int(num_cols) if int(num_cols) > 0 else maxlen + max(lo, 0)
    if int(num_rows) <= 0 and int(num_cols) <= 0:  # neither given: the smallest square that fits
        rows = cols = max(rows, cols)
    lead = tuple(x.shape[:-1]) if lo == hi else tuple(x.shape[:-2])
    base = ops.full(lead + (rows, cols), U.shape_deciding_values("matrix_diag", padding_value).item(), dtype=x.dtype)
    return _place_diagonals("MatrixDiagV3", base, x, lo, hi, align)


# ---------------------------------------------------------------- LU and Householder forms
def _pivot_perm(pivots, n):
    """Row order of P^T A from LAPACK's 1-based sequential row swaps (A = P L U)."""
    perm = np.arange(n)
    for i, p in enumerate(np.asarray(pivots).reshape(-1)[:n]):
        j = int(p) - 1
        perm[i], perm[j] = perm[j], perm[i]
    return perm


@export(_F)
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) with A = P L U from the packed factorization (unit-lower L below the diagonal,
    U on and above it) and 1-based pivots."""
    op = "LuUnpack"
    U.check_tensor(op, "LU_data", LU_data)
    U.check_tensor(op, "LU_pivots", LU_pivots)
    if LU_data.ndim < 2:
        raise ValueError("For '%s', the dimension of 'LU_data' must be at least 2, but got %d." % (op, LU_data.ndim))
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    k = min(m, n)
    piv = U.shape_deciding_values("lu_unpack", LU_pivots).astype(np.int64)
    if piv.shape[-1] != k or np.any(piv < 1) or np.any(piv > m):
        raise ValueError("For '%s', the 'LU_pivots' must hold %d values in [1, %d], but got shape %s."
                         % (op, k, m, tuple(piv.shape)))
    lead = tuple(LU_data.shape[:-2])
    p_mats = np.stack([np.eye(m)[_pivot_perm(p, m)].T for p in piv.reshape(-1, k)]).reshape(lead + (m, m))
    P = U.const(p_mats, LU_data.dtype) if unpack_pivots else ops.zeros(lead + (m, m), LU_data.dtype)
    if not unpack_data:
        empty = ops.zeros((0,), LU_data.dtype)
        return P, empty, empty
    lower = U.const(np.tril(np.ones((m, k)), -1), LU_data.dtype)
    upper = U.const(np.triu(np.ones((k, n))), LU_data.dtype)
    L = ops.narrow(LU_data, -1, 0, k) * lower + U.const(np.eye(m, k), LU_data.dtype)
    Umat = ops.narrow(LU_data, -2, 0, k) * upper
    return P, L, Umat


@export(_F)
def lu_solve(b, LU_data, LU_pivots):
    """X with A X = b, A given by its packed LU factorization and 1-based pivots."""
    op = "LuSolve"
    U.check_tensor(op, "b", b)
    _square(op, LU_data, "LU_data")
    if b.ndim < 2 or b.shape[-2] != LU_data.shape[-1]:
        raise ValueError("For '%s', the 'b' must have shape (..., %d, K), but got %s."
                         % (op, LU_data.shape[-1], tuple(b.shape)))
    P, L, Umat = lu_unpack(LU_data, LU_pivots)
    y = ops.matmul(_inverse(L), ops.matmul(_mT(P), b.astype(LU_data.dtype)))
    return ops.matmul(_inverse(Umat), y)


@export(_F)
def geqrf(input):
    """(y, tau): Householder QR as LAPACK's geqrf stores it (R on and above the diagonal, the
    reflector vectors below). NumPy/LAPACK; no gradient."""
    op = "Geqrf"
    U.check_tensor(op, "input", input)
    if input.ndim < 2 or input.dtype not in U._FLOATS:
        raise ValueError("For '%s', the 'input' must be a float32/float64 matrix (or batch), but got %s %s."
                         % (op, input.dtype, tuple(input.shape)))
    a = U.shape_deciding_values("geqrf", input)
    lead = a.shape[:-2]
    ys, taus = [], []
    for mat in a.reshape((-1,) + a.shape[-2:]):
        h, tau = np.linalg.qr(mat, mode="raw")
        ys.append(h.T)
        taus.append(tau)
    return (U.const(np.stack(ys).reshape(a.shape), input.dtype),
            U.const(np.stack(taus).reshape(lead + (min(a.shape[-2:]),)), input.dtype))


@export(_F)
def eig(A):
    """(eigen_values, eigen_vectors) of square A (..., N, N): complex64 for float32/complex64
    input, complex128 for float64/complex128; each eigenvector column has unit length, the
    values come in LAPACK's (geev) order. NumPy/LAPACK; no gradient."""
    op = "Eig"
    U.check_tensor(op, "A", A)
    kinds = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)
    if A.dtype not in kinds:
        raise TypeError("For '%s', the dtype of 'A' must be float32, float64, complex64 or complex128, "
                        "but got %s." % (op, A.dtype))
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError("For '%s', 'A' must be a square matrix or a batch of them, but got shape %s."
                         % (op, tuple(A.shape)))
    out = mstype.complex64 if A.dtype in (mstype.float32, mstype.complex64) else mstype.complex128
    a = U.shape_deciding_values("eig", A)
    # real input goes through the real geev (conjugate pairs, real-normalized vectors), as torch does
    w, v = _lapack(op, np.linalg.eig, a)
    return U.const(w, out), U.const(v, out)


def _householder_q(input, tau, cols):
    """H_1 H_2 ... H_k applied to the first `cols` columns of the identity, with
    H_i = I - tau_i v_i v_i^T and v_i = (0, ..., 1, input[i+1:, i]): composed of ops."""
    m = input.shape[-2]
    k = tau.shape[-1]
    lead = tuple(input.shape[:-2])
    q = ops.broadcast_to(U.const(np.eye(m, cols), input.dtype), lead + (m, cols))
    below = U.const(np.tril(np.ones((m, k)), -1), input.dtype)
    v_all = ops.narrow(input, -1, 0, k) * below + U.const(np.eye(m, k), input.dtype)
    for i in range(k - 1, -1, -1):
        v = ops.narrow(v_all, -1, i, 1)  # (..., m, 1)
        t = ops.expand_dims(ops.expand_dims(tau[..., i], -1), -1)
        q = q - ops.matmul(v, ops.matmul(_mT(v), q)) * t
    return q


@export(_F)
def orgqr(input, tau):
    """The first n columns of Q from geqrf's (input, tau) (differentiable)."""
    op = "Orgqr"
    U.check_tensor(op, "input", input)
    U.check_tensor(op, "tau", tau)
    if input.ndim < 2 or input.shape[-2] < input.shape[-1] or tau.shape[-1] > input.shape[-1]:
        raise ValueError("For '%s', the 'input' must be (..., M, N) with M >= N and 'tau' (..., K) with K <= N, "
                         "but got %s and %s." % (op, tuple(input.shape), tuple(tau.shape)))
    return _householder_q(input, tau, input.shape[-1])


@export(_F)
def ormqr(input, tau, other, left=True, transpose=False):
    """Q @ other (or other @ Q, with Q^T when transpose) for Q of geqrf's (input, tau)."""
    op = "Ormqr"
    for name, t in (("input", input), ("tau", tau), ("other", other)):
        U.check_tensor(op, name, t)
    q = _householder_q(input, tau, input.shape[-2])
    if transpose:
        q = _mT(q)
    return ops.matmul(q, other) if left else ops.matmul(other, q)
