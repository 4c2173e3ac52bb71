"""mindspore.ops' complex FFTs (fft, ifft, fft2, ifft2, fftn, ifftn): each transformed axis is
moved last and multiplied by the DFT's cosine and sine matrices, on the real and imaginary parts
apart. That is O(n^2) per axis rather than O(n log n), fine for the sizes a debugger shows, and
every step is a differentiable op, so gradients flow. `n` / `s` pad with zeros or trim first;
`norm` is "backward" (default: none on the forward transform, 1/n on the inverse), "forward" or
"ortho", as in MindSpore."""
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_COMPLEX = (mstype.complex64, mstype.complex128)


def _check(op, input):
    U.check_tensor(op, "input", input)
    if input.dtype not in _COMPLEX:
        raise TypeError("For '%s', the dtype of 'input' must be complex64, complex128, but got '%s'."
                        % (op, input.dtype))
    if input.ndim < 1:
        raise ValueError("For '%s', the dimension of 'input' must be at least 1, but got 0." % op)


def _resize(re, im, axis, n):
    size = re.shape[axis]
    if n < size:
        return ops.narrow(re, axis, 0, n), ops.narrow(im, axis, 0, n)
    if n > size:
        shape = list(re.shape)
        shape[axis] = n - size
        z = ops.zeros(tuple(shape), re.dtype)
        return ops.concat((re, z), axis), ops.concat((im, z), axis)
    return re, im


def _dft_axis(re, im, axis, inverse, scale):
    n = re.shape[axis]
    k = np.arange(n)
    angle = 2 * _math.pi * (np.outer(k, k) % n) / n
    # exact zeros where the angle is a multiple of pi/2, so real signals keep exactly real bins
    cos, sin = np.cos(angle), np.sin(angle)
    cos[np.abs(cos) < 1e-12] = 0.0
    sin[np.abs(sin) < 1e-12] = 0.0
    c = U.const(cos * scale, re.dtype)
    s = U.const(sin * (scale if inverse else -scale), re.dtype)
    r = ops.moveaxis(re, axis, -1)
    i = ops.moveaxis(im, axis, -1)
    # (r + i j)(c + s j)
    out_r = ops.matmul(r, c) - ops.matmul(i, s)
    out_i = ops.matmul(r, s) + ops.matmul(i, c)
    return ops.moveaxis(out_r, -1, axis), ops.moveaxis(out_i, -1, axis)


def _scale(norm, n, inverse, op):
    if norm is None:
        norm = "backward"
    if norm not in ("backward", "forward", "ortho"):
        raise ValueError("For '%s', norm must be one of 'backward', 'forward' or 'ortho', but got %s." % (op, norm))
    if norm == "ortho":
        return 1.0 / _math.sqrt(n)
    return 1.0 / n if (norm == "backward") == inverse else 1.0


def _transform(op, input, sizes, dims, norm, inverse):
    _check(op, input)
    dims = [U.norm_axis(op, d, input.ndim) for d in dims]
    if len(set(dims)) != len(dims):
        raise ValueError("FFT dims must be unique.")
    real_dtype = mstype.float64 if input.dtype == mstype.complex128 else mstype.float32
    re, im = ops.real(input).astype(real_dtype), ops.imag(input).astype(real_dtype)
    for d, n in zip(dims, sizes):
        n = re.shape[d] if n in (None, -1) else n
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError("For '%s', the signal size must be an int >= 1, but got %s." % (op, n))
        re, im = _resize(re, im, d, n)
        re, im = _dft_axis(re, im, d, inverse, _scale(norm, n, inverse, op))
    return ops.complex(re, im).astype(input.dtype)


def _dims_sizes(op, input, s, dim, default_dim):
    if isinstance(s, int):
        s = (s,)
    if isinstance(dim, int):
        dim = (dim,)
    if s is not None and not isinstance(s, (tuple, list)):
        raise TypeError("For '%s', 's' must be tuple(int)." % op)
    if dim is not None and not isinstance(dim, (tuple, list)):
        raise TypeError("For '%s', 'dim' must be tuple(int)." % op)
    if dim is None:
        dim = default_dim if default_dim is not None else (
            tuple(range(input.ndim - len(s), input.ndim)) if s is not None else tuple(range(input.ndim)))
    if s is None:
        s = (None,) * len(dim)
    if len(s) != len(dim):
        raise ValueError("shape and dim must have the same length, but now they are %d and %d." % (len(dim), len(s)))
    return tuple(dim), tuple(s)


@export(_F)
def fft(input, n=None, dim=-1, norm=None):
    return _transform("FFT", input, (n,), (dim,), norm, False)


@export(_F)
def ifft(input, n=None, dim=-1, norm=None):
    return _transform("IFFT", input, (n,), (dim,), norm, True)


@export(_F)
def fftn(input, s=None, dim=None, norm=None):
    _check("FFTN", input)
    dims, sizes = _dims_sizes("FFTN", input, s, dim, None)
    return _transform("FFTN", input, sizes, dims, norm, False)


@export(_F)
def ifftn(input, s=None, dim=None, norm=None):
    _check("IFFTN", input)
    dims, sizes = _dims_sizes("IFFTN", input, s, dim, None)
    return _transform("IFFTN", input, sizes, dims, norm, True)


@export(_F)
def fft2(input, s=None, dim=(-2, -1), norm=None):
    return fftn(input, s, dim, norm)


@export(_F)
def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return ifftn(input, s, dim, norm)
