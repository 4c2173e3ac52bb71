"""nn PSNR, SSIM and MSSSIM against a NumPy implementation of the same formulas (Gaussian-weighted
'valid' windows), their uint8 handling, gradients and MindSpore's errors."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import check_grad, close, raises

rng = np.random.default_rng(11)
a = rng.random((2, 3, 12, 12))
b = np.clip(a + 0.1 * rng.standard_normal(a.shape), 0, 1)

close(nn.PSNR()(Tensor(a), Tensor(b)), 10 * np.log10(1.0 / ((a - b) ** 2).mean((1, 2, 3))))
close(nn.PSNR(2.0)(Tensor(a), Tensor(b)), 10 * np.log10(4.0 / ((a - b) ** 2).mean((1, 2, 3))))
ua, ub = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
mse = ((ua / 255.0 - ub / 255.0) ** 2).mean((1, 2, 3))
close(nn.PSNR(255)(Tensor(ua), Tensor(ub)), 10 * np.log10(1.0 / mse), rtol=1e-4)
# Any integer dtype: images and max_val (cast to that dtype) in units of the dtype's maximum.
ia, ib = (a * 40).astype(np.int64), (b * 40).astype(np.int64)
close(nn.PSNR(3.7)(Tensor(ia), Tensor(ib)), 10 * np.log10(9.0 / ((ia - ib) ** 2).mean((1, 2, 3))), rtol=1e-4)
raises(ValueError, nn.PSNR, 0.0, match="'max_val' must be greater than 0")
raises(ValueError, nn.PSNR(), Tensor(a[0]), Tensor(b[0]), match="must be 4 (N, C, H, W)")
raises(ValueError, nn.PSNR(), Tensor(a), Tensor(b[:1]), match="must have the same shape")
# Different dtypes are a TypeError (MindSpore's SameTypeShape checks them before the shapes).
raises(TypeError, nn.PSNR(), Tensor(a, ms.float32), Tensor(b[:1], ms.float16), match="same data type")
raises(TypeError, nn.SSIM(), Tensor(a, ms.float32), Tensor(b, ms.float16), match="same data type")


def gaussian(size, sigma):
    r = np.arange(size) - size // 2 + (1 if size % 2 == 0 else 0)
    g = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * sigma * sigma))
    return g / g.sum()


def blur(x, g):
    k = g.shape[0]
    h, w = x.shape[-2] - k + 1, x.shape[-1] - k + 1
    out = np.zeros(x.shape[:-2] + (h, w))
    for i, j in np.ndindex(k, k):
        out += g[i, j] * x[..., i:i + h, j:j + w]
    return out


def ssim_np(x, y, size=11, sigma=1.5, k1=0.01, k2=0.03, max_val=1.0):
    g = gaussian(size, sigma)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mx, my = blur(x, g), blur(y, g)
    vx, vy, cxy = blur(x * x, g) - mx * mx, blur(y * y, g) - my * my, blur(x * y, g) - mx * my
    lum = (2 * mx * my + c1) / (mx * mx + my * my + c1)
    cs = (2 * cxy + c2) / (vx + vy + c2)
    return (lum * cs).mean((-2, -1)), cs.mean((-2, -1))


close(nn.SSIM()(Tensor(a), Tensor(b)), ssim_np(a, b)[0].mean(-1))
close(nn.SSIM(filter_size=5, filter_sigma=1.0, k1=0.02)(Tensor(a), Tensor(b)),
      ssim_np(a, b, 5, 1.0, 0.02)[0].mean(-1))
close(nn.SSIM()(Tensor(a), Tensor(a)), [1.0, 1.0])
raises(ValueError, nn.SSIM(filter_size=13), Tensor(a), Tensor(b), match="must be at least 'filter_size' (13)")
raises(TypeError, nn.SSIM, filter_size=1.5, match="'filter_size' must be int")


def pool2(x):
    h, w = x.shape[-2] // 2, x.shape[-1] // 2
    return x[..., :2 * h, :2 * w].reshape(x.shape[:-2] + (h, 2, w, 2)).mean((-3, -1))


powers = (0.3, 0.7)
s0, cs0 = ssim_np(a, b, 3, 1.0)
s1, _ = ssim_np(pool2(a), pool2(b), 3, 1.0)
want = (np.maximum(cs0, 0) ** powers[0] * np.maximum(s1, 0) ** powers[1]).mean(-1)
close(nn.MSSSIM(power_factors=powers, filter_size=3, filter_sigma=1.0)(Tensor(a), Tensor(b)), want)
raises(TypeError, nn.MSSSIM, power_factors=(), match="'power_factors'")

# SSIM as a loss: its gradient is the formula's (finite differences, float64).
ref = Tensor(b[:1, :1, :5, :5])
check_grad(lambda t: nn.SSIM(filter_size=3, filter_sigma=1.0)(t, ref).sum(), a[:1, :1, :5, :5])
check_grad(lambda t: nn.PSNR()(t, ref).sum(), a[:1, :1, :5, :5])
