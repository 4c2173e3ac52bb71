"""The image-quality Cells of MindSpore 2.2: PSNR, SSIM and MSSSIM of (N, C, H, W) image pairs,
each a value per image. SSIM's statistics are Gaussian-weighted means taken by a depthwise
'valid' convolution, so the values are differentiable (SSIM is a common training loss)."""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

__all__ = ["PSNR", "SSIM", "MSSSIM"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_INTEGERS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32,
             mstype.uint64)


def _check_positive(who, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '%s', the type of '%s' must be int or float, but got %s."
                        % (who, name, type(value).__name__))
    if value <= 0:
        raise ValueError("For '%s', the '%s' must be greater than 0, but got %s." % (who, name, value))
    return value


def _check_pair(who, img1, img2):
    for name, img in (("img1", img1), ("img2", img2)):
        if not isinstance(img, Tensor):
            raise TypeError("For '%s', the '%s' must be a Tensor, but got %s." % (who, name, type(img).__name__))
        if img.ndim != 4:
            raise ValueError("For '%s', the dimension of '%s' must be 4 (N, C, H, W), but got %d."
                             % (who, name, img.ndim))
    # MindSpore's SameTypeShape check: the dtypes first (TypeError), then the shapes (ValueError).
    if img1.dtype != img2.dtype:
        raise TypeError("For '%s', 'img1' and 'img2' must have the same data type, but got %s and %s."
                        % (who, img1.dtype, img2.dtype))
    if tuple(img1.shape) != tuple(img2.shape):
        raise ValueError("For '%s', 'img1' and 'img2' must have the same shape, but got %s and %s."
                         % (who, tuple(img1.shape), tuple(img2.shape)))


def _to_unit_float(who, img, max_val):
    """Floats keep their scale. MindSpore divides integer images, and max_val cast to their dtype,
    by the dtype's maximum; PSNR, SSIM and MSSSIM are unchanged when images and max_val scale
    together, so integer images are only cast to float32 and max_val truncated as that cast does
    (the division would take int64 images near float32's smallest normal numbers)."""
    if img.dtype in _FLOATS:
        return img, float(max_val)
    if img.dtype in _INTEGERS:
        return ops.cast(img, mstype.float32), float(int(max_val))
    raise TypeError("For '%s', the dtype of the images must be a float or integer type, but got %s."
                    % (who, img.dtype))


class PSNR(_nn.Cell):
    """10 * log10(max_val^2 / MSE) per image, the MSE over C, H and W."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_positive("PSNR", "max_val", max_val)

    def construct(self, img1, img2):
        _check_pair("PSNR", img1, img2)
        a, max_val = _to_unit_float("PSNR", img1, self.max_val)
        b, _ = _to_unit_float("PSNR", img2, self.max_val)
        mse = ops.mean(ops.square(a - b), (-3, -2, -1))
        return 10.0 * ops.log(max_val * max_val / mse) / np.log(10.0)


def _gaussian_window(size, sigma):
    # MindSpore's grid: -size // 2 + 1 .. size // 2 (for even sizes, one more on the high side).
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-((x * x + y * y) / (2.0 * sigma * sigma)))
    return g / g.sum()


class _SSIMBase(_nn.Cell):
    _who = "SSIM"

    def __init__(self, max_val, filter_size, filter_sigma, k1, k2):
        super().__init__()
        who = self._who
        self.max_val = _check_positive(who, "max_val", max_val)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int):
            raise TypeError("For '%s', the type of 'filter_size' must be int, but got %s."
                            % (who, type(filter_size).__name__))
        if filter_size < 1:
            raise ValueError("For '%s', the 'filter_size' must be no less than 1, but got %d." % (who, filter_size))
        self.filter_size = filter_size
        self.filter_sigma = _check_positive(who, "filter_sigma", filter_sigma)
        self.k1 = _check_positive(who, "k1", k1)
        self.k2 = _check_positive(who, "k2", k2)
        self.__dict__["_window"] = _gaussian_window(filter_size, filter_sigma)

    def _stats(self, a, b, max_val):
        """(ssim, cs) averaged over each channel's valid positions: (N, C) each."""
        channels, h, w = a.shape[1], a.shape[2], a.shape[3]
        if h < self.filter_size or w < self.filter_size:
            raise ValueError("For '%s', the image height and width (%d, %d) must be at least 'filter_size' (%d)."
                             % (self._who, h, w, self.filter_size))
        weight = Tensor(np.broadcast_to(self._window, (channels, 1) + self._window.shape).copy(), a.dtype)

        def blur(x):
            return ops.conv2d(x, weight, None, 1, "valid", 0, 1, channels)

        c1 = (self.k1 * max_val) ** 2
        c2 = (self.k2 * max_val) ** 2
        mu_a, mu_b = blur(a), blur(b)
        mu_aa, mu_bb, mu_ab = mu_a * mu_a, mu_b * mu_b, mu_a * mu_b
        var_a = blur(a * a) - mu_aa
        var_b = blur(b * b) - mu_bb
        cov = blur(a * b) - mu_ab
        luminance = (2.0 * mu_ab + c1) / (mu_aa + mu_bb + c1)
        cs = (2.0 * cov + c2) / (var_a + var_b + c2)
        return ops.mean(luminance * cs, (-2, -1)), ops.mean(cs, (-2, -1))


class SSIM(_SSIMBase):
    """The structural similarity of each image pair, averaged over positions and channels: (N,)."""
    _who = "SSIM"

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__(max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1, img2):
        _check_pair("SSIM", img1, img2)
        a, max_val = _to_unit_float("SSIM", img1, self.max_val)
        b, _ = _to_unit_float("SSIM", img2, self.max_val)
        ssim, _ = self._stats(a, b, max_val)
        return ops.mean(ssim, -1)


class MSSSIM(_SSIMBase):
    """Multi-scale SSIM: the product over scales of cs^power (the last scale's ssim^power), the
    images halved by 2 x 2 average pooling between scales; averaged over channels: (N,)."""
    _who = "MSSSIM"

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__(max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)) or not power_factors or not all(
                isinstance(p, (int, float)) and not isinstance(p, bool) for p in power_factors):
            raise TypeError("For 'MSSSIM', the 'power_factors' must be a non-empty tuple or list of floats, but got "
                            "%s." % (power_factors,))
        self.power_factors = tuple(power_factors)

    def construct(self, img1, img2):
        _check_pair("MSSSIM", img1, img2)
        a, max_val = _to_unit_float("MSSSIM", img1, self.max_val)
        b, _ = _to_unit_float("MSSSIM", img2, self.max_val)
        factors = []
        levels = len(self.power_factors)
        for level, power in enumerate(self.power_factors):
            ssim, cs = self._stats(a, b, max_val)
            last = level == levels - 1
            factors.append(ops.pow(ops.relu(ssim if last else cs), power))
            if not last:
                a = ops.avg_pool2d(a, 2, 2)
                b = ops.avg_pool2d(b, 2, 2)
        product = factors[0]
        for f in factors[1:]:
            product = product * f
        return ops.mean(product, -1)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
