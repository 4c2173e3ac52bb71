"""ops.norm with every documented ord, vector_norm and matrix_norm against numpy.linalg.norm; the
complex FFTs (fft, ifft, fft2, ifft2, fftn, ifftn) and stft against numpy.fft; their gradients
against finite differences."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, fd_grad, raises

rng = np.random.default_rng(7)
v = rng.standard_normal(7)
m = rng.standard_normal((4, 5))
V, M = Tensor(v), Tensor(m)
inf = float("inf")
for ordv in (None, 2, 1, 3, 0.5, -1, -2, inf, -inf, 0):
    close(ops.norm(V, ordv), np.linalg.norm(v, ordv), rtol=1e-10)
    close(ops.vector_norm(V, 2 if ordv is None else ordv), np.linalg.norm(v, ordv), rtol=1e-10)
for ordm in (None, "fro", "nuc", 1, -1, 2, -2, inf, -inf):
    close(ops.norm(M, ordm), np.linalg.norm(m, ordm), rtol=1e-10)
    if ordm is not None:
        close(ops.matrix_norm(M, ordm), np.linalg.norm(m, ordm), rtol=1e-10)
# dims, keepdim and batches
t3 = rng.standard_normal((2, 3, 4))
close(ops.norm(Tensor(t3), inf, dim=(2, 1)), np.linalg.norm(t3, inf, axis=(2, 1)), rtol=1e-10)
close(ops.norm(Tensor(t3), 1, dim=(0, 2), keepdim=True), np.linalg.norm(t3, 1, axis=(0, 2), keepdims=True),
      rtol=1e-10)
close(ops.norm(Tensor(t3), -inf, dim=1), np.linalg.norm(t3, -inf, axis=1), rtol=1e-10)
close(ops.matrix_norm(Tensor(t3), "nuc", keepdims=True), np.linalg.norm(t3, "nuc", axis=(-2, -1), keepdims=True),
      rtol=1e-10)
close(ops.vector_norm(Tensor(t3), 3, axis=(0, 2)), np.sum(np.abs(t3) ** 3, axis=(0, 2)) ** (1 / 3), rtol=1e-10)
assert ops.norm(Tensor(m.astype(np.float32)), 1).dtype == ms.float32
# gradients through the new ords
for f in (lambda a: ops.norm(a, inf), lambda a: ops.norm(a, -1, dim=(0, 1))):
    close(ms.grad(f)(M), fd_grad(f, m), rtol=1e-5, atol=1e-7)
half = lambda a: ops.norm(a, 0.5)
close(ms.grad(half)(V), fd_grad(half, v), rtol=1e-5, atol=1e-7)
nuc = lambda a: ops.norm(a, "nuc")
close(ms.grad(nuc)(M), fd_grad(nuc, m), rtol=1e-5, atol=1e-7)
raises(ValueError, ops.norm, M, 3, match="ord mode must be in")
raises(TypeError, ops.norm, V, "fro", dim=0, match="can not be str for vectors")
raises(ValueError, ops.matrix_norm, M, 0, match="For matrix_norm")

# FFTs
c = rng.standard_normal((3, 6)) + 1j * rng.standard_normal((3, 6))
C = Tensor(c.astype(np.complex64))
close(ops.fft(C), np.fft.fft(c), rtol=1e-4, atol=1e-5)
close(ops.ifft(C), np.fft.ifft(c), rtol=1e-4, atol=1e-5)
close(ops.fft(C, n=8, dim=0), np.fft.fft(c, n=8, axis=0), rtol=1e-4, atol=1e-5)
close(ops.fft(C, n=4, norm="ortho"), np.fft.fft(c, n=4, norm="ortho"), rtol=1e-4, atol=1e-5)
close(ops.ifft(C, norm="forward"), np.fft.ifft(c, norm="forward"), rtol=1e-4, atol=1e-5)
close(ops.fft2(C), np.fft.fft2(c), rtol=1e-4, atol=1e-4)
close(ops.ifft2(C, s=(4, 4)), np.fft.ifft2(c, s=(4, 4)), rtol=1e-4, atol=1e-5)
c3 = rng.standard_normal((2, 3, 4)) + 0j
close(ops.fftn(Tensor(c3)), np.fft.fftn(c3), rtol=1e-10, atol=1e-10)
close(ops.ifftn(Tensor(c3), dim=(0, 2)), np.fft.ifftn(c3, axes=(0, 2)), rtol=1e-10, atol=1e-12)
assert ops.fft(C).dtype == ms.complex64 and ops.fftn(Tensor(c3)).dtype == ms.complex128
assert np.abs(ops.fft(Tensor(np.array([1.0, 2.0, 3.0, 4.0]) + 0j)).asnumpy().imag[[0, 2]]).max() == 0.0
raises(TypeError, ops.fft, Tensor(np.ones(4)), match="must be complex64, complex128")
raises(ValueError, ops.fft, C, norm="half", match="norm must be one of")
# gradient: d/dx sum(|fft(x)|^2) = 2 n x for a real signal x (Parseval)
xr = rng.standard_normal(5)
energy = lambda a: ops.sum(ops.abs(ops.fft(ops.complex(a, ops.zeros_like(a)))) ** 2)
close(ms.grad(energy)(Tensor(xr)), 2 * 5 * xr, rtol=1e-8)

# stft: frames x window, one-sided DFT
sig = rng.standard_normal(64)
win = np.hanning(16)
out = ops.stft(Tensor(sig), 16, hop_length=4, window=Tensor(win), return_complex=True).asnumpy()
padded = np.pad(sig, 8, mode="reflect")
frames = np.stack([padded[i * 4:i * 4 + 16] * win for i in range(1 + (len(padded) - 16) // 4)])
close(out, np.fft.rfft(frames, axis=-1).T, rtol=1e-8, atol=1e-10)
pair = ops.stft(Tensor(sig.reshape(2, 32).astype(np.float32)), 8, center=False, normalized=True)
frames2 = np.stack([sig.reshape(2, 32)[:, i * 2:i * 2 + 8] for i in range(13)], 1)
ref = np.fft.rfft(frames2, axis=-1).transpose(0, 2, 1) / np.sqrt(8)
assert pair.shape == (2, 5, 13, 2)
close(pair, np.stack([ref.real, ref.imag], -1), rtol=1e-4, atol=1e-5)
short = ops.stft(Tensor(sig), 16, win_length=10, window=Tensor(np.ones(10)), center=False, return_complex=True)
frames3 = np.stack([np.pad(np.ones(10), 3) * sig[i * 4:i * 4 + 16] for i in range(13)])
close(short, np.fft.rfft(frames3, axis=-1).T, rtol=1e-8, atol=1e-10)
f = lambda a: ops.sum(ops.stft(a, 8, hop_length=2, center=False) ** 2)
close(ms.grad(f)(Tensor(sig[:20])), fd_grad(f, sig[:20]), rtol=1e-6, atol=1e-6)
raises(ValueError, ops.stft, Tensor(sig), 16, win_length=20, match="must not exceed 'n_fft'")
