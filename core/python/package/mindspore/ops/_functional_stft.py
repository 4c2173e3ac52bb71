"""ops.stft: the short-time Fourier transform, as frames gathered from the (optionally padded)
signal times the window, then one matmul with the DFT's cosine and sine matrices. Every step is a
differentiable op, so the gradient reaches the signal and the window."""
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"
_COMPLEX = (mstype.complex64, mstype.complex128)


def _pad_index(length, pad, mode):
    """Source positions of a signal padded by `pad` on both sides (reflect or symmetric)."""
    i = np.arange(-pad, length + pad)
    if mode == "REFLECT":
        period = 2 * (length - 1)
        i = np.abs(i) % period
        return np.where(i >= length, period - i, i)
    i = np.where(i < 0, -i - 1, i)
    return np.where(i >= length, 2 * length - 1 - i, i)


def _center(x, pad, pad_mode):
    mode = str(pad_mode).upper()
    length = x.shape[-1]
    if mode == "CONSTANT":
        zeros = ops.zeros(tuple(x.shape[:-1]) + (pad,), x.dtype)
        return ops.concat((zeros, x, zeros), -1)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError("For 'stft', the 'pad_mode' must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', but got %s."
                         % (pad_mode,))
    if mode == "REFLECT" and pad >= length:
        raise ValueError("For 'stft', reflect padding of %d needs a signal longer than that, but got length %d."
                         % (pad, length))
    return ops.gather(x, U.const(_pad_index(length, pad, mode), mstype.int64), x.ndim - 1)


@export(_F)
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="REFLECT",
         normalized=False, onesided=None, return_complex=None):
    U.check_tensor("stft", "x", x)
    if x.ndim not in (1, 2):
        raise TypeError("For 'stft', 'x' must be a 1-D or 2-D Tensor, but got %d-D." % x.ndim)
    n_fft = U.check_int("stft", "n_fft", n_fft, 1)
    hop_length = n_fft // 4 if hop_length is None else U.check_int("stft", "hop_length", hop_length, 1)
    win_length = n_fft if win_length is None else U.check_int("stft", "win_length", win_length, 1)
    if win_length > n_fft:
        raise ValueError("For 'stft', 'win_length' (%d) must not exceed 'n_fft' (%d)." % (win_length, n_fft))
    for name, value in (("center", center), ("normalized", normalized), ("onesided", onesided),
                        ("return_complex", return_complex)):
        if value is not None and not isinstance(value, bool):
            raise TypeError("For 'stft', '%s' must be a bool, but got %s." % (name, type(value).__name__))
    if window is None:
        window = ops.ones((win_length,), mstype.float32)
    U.check_tensor("stft", "window", window)
    if window.ndim != 1 or window.shape[0] != win_length:
        raise TypeError("For 'stft', 'window' must be a 1-D Tensor of size win_length (%d), but got shape %s."
                        % (win_length, tuple(window.shape)))
    is_complex = x.dtype in _COMPLEX or window.dtype in _COMPLEX
    onesided = (not is_complex) if onesided is None else onesided
    return_complex = is_complex if return_complex is None else return_complex

    batched = x if x.ndim == 2 else ops.expand_dims(x, 0)
    real_dtype = mstype.float64 if x.dtype in (mstype.float64, mstype.complex128) else mstype.float32
    if center:
        batched = _center(batched, n_fft // 2, pad_mode)
    length = batched.shape[-1]
    if length < n_fft:
        raise ValueError("For 'stft', the signal (length %d after padding) is shorter than n_fft (%d)."
                         % (length, n_fft))
    frames_n = 1 + (length - n_fft) // hop_length
    idx = np.arange(frames_n)[:, None] * hop_length + np.arange(n_fft)[None, :]
    frames = ops.gather(batched, U.const(idx.reshape(-1), mstype.int64), 1)
    frames = ops.reshape(frames, (batched.shape[0], frames_n, n_fft))

    left = (n_fft - win_length) // 2
    if win_length < n_fft:
        window = ops.concat((ops.zeros((left,), window.dtype), window,
                             ops.zeros((n_fft - win_length - left,), window.dtype)))
    bins = n_fft // 2 + 1 if onesided else n_fft
    angle = 2 * _math.pi * np.outer(np.arange(n_fft), np.arange(bins)) / n_fft
    cos_m = U.const(np.cos(angle), real_dtype)
    sin_m = U.const(np.sin(angle), real_dtype)

    def parts(t):
        if t.dtype in _COMPLEX:
            return ops.real(t).astype(real_dtype), ops.imag(t).astype(real_dtype)
        return t.astype(real_dtype), None

    fr, fi = parts(frames)
    wr, wi = parts(window)
    # (fr + i fi)(wr + i wi)
    sr = fr * wr if wi is None and fi is None else fr * wr - (0 if fi is None or wi is None else fi * wi)
    si = None
    if fi is not None or wi is not None:
        si = (0 if fi is None else fi * wr) + (0 if wi is None else fr * wi)
    re = ops.matmul(sr, cos_m)
    im = -ops.matmul(sr, sin_m)
    if si is not None:
        re = re + ops.matmul(si, sin_m)
        im = im + ops.matmul(si, cos_m)
    if normalized:
        re = re / _math.sqrt(n_fft)
        im = im / _math.sqrt(n_fft)
    re = ops.transpose(re, (0, 2, 1))
    im = ops.transpose(im, (0, 2, 1))
    out = ops.complex(re, im) if return_complex else ops.stack((re, im), -1)
    return out if x.ndim == 2 else ops.squeeze(out, 0)
