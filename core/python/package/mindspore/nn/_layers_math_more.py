"""Array and image Cells of MindSpore 2.2 (nn.layer.basic / math / image) composed from
mindspore.ops: Norm, Tril, Triu, MatrixDiag, MatrixDiagPart, MatrixSetDiag, Roll,
ReduceLogSumExp, Moments, ImageGradients, CentralCrop, ResizeBilinear and Unfold (patch
extraction)."""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

__all__ = ["Norm", "Tril", "Triu", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Roll", "ReduceLogSumExp",
           "Moments", "ImageGradients", "CentralCrop", "ResizeBilinear", "Unfold"]


def _axes(who, axis, ndim):
    """axis (int, tuple or () for all) as sorted non-negative axes."""
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
        raise TypeError("For '%s', the type of 'axis' must be int or tuple, but got %s." % (who, type(axis).__name__))
    values = (axis,) if isinstance(axis, int) else tuple(axis)
    if not values:
        return tuple(range(ndim))
    out = []
    for a in values:
        if not -ndim <= a < ndim:
            raise ValueError("For '%s', the 'axis' must be in range [%d, %d), but got %d." % (who, -ndim, ndim, a))
        out.append(a % ndim)
    return tuple(sorted(set(out)))


class Norm(_nn.Cell):
    """The L2 norm sqrt(sum(x^2)) over axis (() means every axis)."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError("For 'Norm', the type of 'keep_dims' must be bool, but got %s." % type(keep_dims).__name__)
        _axes("Norm", axis, 64)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axes = _axes("Norm", self.axis, x.ndim)
        return ops.sqrt(ops.sum(ops.square(x), axes, keepdim=self.keep_dims))

    def extend_repr(self):
        return "axis={}, keep_dims={}".format(self.axis, self.keep_dims)


class Tril(_nn.Cell):
    """x with the elements above diagonal k zeroed."""

    def construct(self, x, k=0):
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError("For 'Tril', the type of 'k' must be int, but got %s." % type(k).__name__)
        return ops.tril(x, k)


class Triu(_nn.Cell):
    """x with the elements below diagonal k zeroed."""

    def construct(self, x, k=0):
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError("For 'Triu', the type of 'k' must be int, but got %s." % type(k).__name__)
        return ops.triu(x, k)


def _eye(rows, cols, dtype):
    return Tensor(np.eye(rows, cols), dtype)


class MatrixDiag(_nn.Cell):
    """(..., n) diagonal values -> (..., n, n) diagonal matrices."""

    def construct(self, x):
        if x.ndim < 1:
            raise ValueError("For 'MatrixDiag', the input must have at least 1 dimension, but got 0.")
        n = x.shape[-1]
        shape = tuple(x.shape) + (n,)
        on_diagonal = ops.broadcast_to(Tensor(np.eye(n, dtype=bool)), shape)
        return ops.select(on_diagonal, ops.broadcast_to(ops.expand_dims(x, -2), shape), ops.zeros(shape, x.dtype))


class MatrixDiagPart(_nn.Cell):
    """(..., m, n) -> (..., min(m, n)): the main diagonal of each matrix."""

    def construct(self, x):
        if x.ndim < 2:
            raise ValueError("For 'MatrixDiagPart', the input must have at least 2 dimensions, but got %d." % x.ndim)
        m, n = x.shape[-2], x.shape[-1]
        masked = x * _eye(m, n, x.dtype)
        return ops.sum(masked, -1) if m <= n else ops.sum(masked, -2)


class MatrixSetDiag(_nn.Cell):
    """x with the main diagonal of each matrix replaced by diagonal (..., min(m, n))."""

    def construct(self, x, diagonal):
        if x.ndim < 2:
            raise ValueError("For 'MatrixSetDiag', the input must have at least 2 dimensions, but got %d." % x.ndim)
        m, n = x.shape[-2], x.shape[-1]
        want = tuple(x.shape[:-2]) + (min(m, n),)
        if tuple(diagonal.shape) != want:
            raise ValueError("For 'MatrixSetDiag', the shape of 'diagonal' must be %s for 'x' of shape %s, but got "
                             "%s." % (want, tuple(x.shape), tuple(diagonal.shape)))
        eye = _eye(m, n, x.dtype)
        diagonal = ops.cast(diagonal, x.dtype)
        placed = ops.expand_dims(diagonal, -2) * eye if m >= n else ops.expand_dims(diagonal, -1) * eye
        return x * (1 - eye) + placed


class Roll(_nn.Cell):
    """Rolls the elements by shift along axis (ints or matching tuples), wrapping around."""

    def __init__(self, shift, axis):
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            if isinstance(value, bool) or not isinstance(value, (int, tuple, list)) or (
                    isinstance(value, (tuple, list)) and not all(isinstance(v, int) for v in value)):
                raise TypeError("For 'Roll', the type of '%s' must be int, tuple or list of int, but got %s."
                                % (name, value))
        shifts = (shift,) if isinstance(shift, int) else tuple(shift)
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) != len(axes):
            raise ValueError("For 'Roll', the shape of 'shift' and the shape of 'axis' must be the same, but got %d "
                             "and %d." % (len(shifts), len(axes)))
        self.shift, self.axis = shift, axis
        self.__dict__["_pairs"] = (shifts, axes)

    def construct(self, x):
        shifts, axes = self.__dict__["_pairs"]
        for a in axes:
            if not -x.ndim <= a < x.ndim:
                raise ValueError("For 'Roll', the 'axis' must be in range [%d, %d), but got %d." % (-x.ndim, x.ndim, a))
        return ops.roll(x, shifts, axes)


class ReduceLogSumExp(_nn.Cell):
    """log(sum(exp(x))) over axis, computed stably."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError("For 'ReduceLogSumExp', the type of 'keep_dims' must be bool, but got %s."
                            % type(keep_dims).__name__)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        return ops.logsumexp(x, _axes("ReduceLogSumExp", self.axis, x.ndim), self.keep_dims)


class Moments(_nn.Cell):
    """(mean, population variance) of x over axis (None: every axis)."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        if keep_dims is not None and not isinstance(keep_dims, bool):
            raise TypeError("For 'Moments', the type of 'keep_dims' must be bool, but got %s."
                            % type(keep_dims).__name__)
        self.axis, self.keep_dims = axis, bool(keep_dims)

    def construct(self, x):
        axes = tuple(range(x.ndim)) if self.axis is None else _axes("Moments", self.axis, x.ndim)
        mean = ops.mean(x, axes, True)
        variance = ops.mean(ops.square(x - mean), axes, self.keep_dims)
        return (mean if self.keep_dims else ops.mean(x, axes, False)), variance


class ImageGradients(_nn.Cell):
    """(dy, dx) of (N, C, H, W) images: the difference with the next row / column, 0 in the last."""

    def construct(self, images):
        if images.ndim != 4:
            raise ValueError("For 'ImageGradients', the dimension of 'images' must be 4, but got %d." % images.ndim)
        n, c, h, w = images.shape
        if h > 1:
            dy = ops.concat((images[:, :, 1:, :] - images[:, :, :-1, :], ops.zeros((n, c, 1, w), images.dtype)), 2)
        else:
            dy = ops.zeros_like(images)
        if w > 1:
            dx = ops.concat((images[:, :, :, 1:] - images[:, :, :, :-1], ops.zeros((n, c, h, 1), images.dtype)), 3)
        else:
            dx = ops.zeros_like(images)
        return dy, dx


class CentralCrop(_nn.Cell):
    """The central central_fraction of the height and width of (C, H, W) or (N, C, H, W) images."""

    def __init__(self, central_fraction):
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, (int, float)):
            raise TypeError("For 'CentralCrop', the type of 'central_fraction' must be float, but got %s."
                            % type(central_fraction).__name__)
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError("For 'CentralCrop', the 'central_fraction' must be in range (0, 1], but got %s."
                             % central_fraction)
        self.central_fraction = float(central_fraction)

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError("For 'CentralCrop', the dimension of 'image' must be 3 or 4, but got %d." % image.ndim)
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2], image.shape[-1]
        top = int((h - self.central_fraction * h) / 2.0)
        left = int((w - self.central_fraction * w) / 2.0)
        return image[..., top:h - top, left:w - left]


class ResizeBilinear(_nn.Cell):
    """Bilinear resizing of (N, C, H, W) images to size or scale_factor times their size, with
    MindSpore's ResizeBilinearV2 pixel mappings (align_corners, half_pixel_centers; neither: the
    asymmetric one)."""

    def __init__(self, half_pixel_centers=False):
        super().__init__()
        if not isinstance(half_pixel_centers, bool):
            raise TypeError("For 'ResizeBilinear', the type of 'half_pixel_centers' must be bool, but got %s."
                            % type(half_pixel_centers).__name__)
        self.half_pixel_centers = half_pixel_centers

    def construct(self, x, size=None, scale_factor=None, align_corners=False):
        who = "ResizeBilinear"
        if not isinstance(align_corners, bool):
            raise TypeError("For '%s', the type of 'align_corners' must be bool, but got %s."
                            % (who, type(align_corners).__name__))
        if align_corners and self.half_pixel_centers:
            raise TypeError("For '%s', 'align_corners' and 'half_pixel_centers' can not both be True." % who)
        if size is None and scale_factor is None:
            raise ValueError("For '%s', the 'size' and 'scale' both none." % who)
        if size is not None and scale_factor is not None:
            raise ValueError("For '%s', the 'size' and 'scale' both not none." % who)
        if x.ndim != 4:
            raise ValueError("For '%s', the dimension of 'x' must be 4, but got %d." % (who, x.ndim))
        if size is not None:
            if not isinstance(size, (tuple, list)) or len(size) != 2:
                raise ValueError("For '%s', the 'size' must be a tuple or list of 2 ints, but got %s." % (who, size))
            shape = tuple(int(v) for v in size)
        else:
            if isinstance(scale_factor, bool) or not isinstance(scale_factor, int) or scale_factor <= 0:
                raise ValueError("For '%s', the 'scale_factor' must be a positive int, but got %s."
                                 % (who, scale_factor))
            shape = (scale_factor * x.shape[2], scale_factor * x.shape[3])
        return ops.ResizeBilinearV2(align_corners, self.half_pixel_centers)(x, shape)


def _four(who, name, value):
    if not isinstance(value, (tuple, list)):
        raise TypeError("For '%s', the type of '%ss' must be tuple or list, but got %s."
                        % (who, name, type(value).__name__))
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError("For '%s', the format of '%ss' must be [1, %s_row, %s_col, 1], but got %s."
                         % (who, name, name, name, value))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value[1:3]) or min(value[1:3]) < 1:
        raise ValueError("For '%s', the %s_row and %s_col in '%ss' must be positive ints, but got %s."
                         % (who, name, name, name, value))
    return int(value[1]), int(value[2])


class Unfold(_nn.Cell):
    """Extracts the ksize_row x ksize_col patches (with strides and dilation rates) of (N, C, H, W)
    input into the channel axis: (N, ksize_row * ksize_col * C, out_row, out_col), each patch
    position's C channels together (position-major, as ExtractImagePatches orders them)."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        who = "Unfold"
        self.__dict__["_k"] = _four(who, "ksize", ksizes)
        self.__dict__["_s"] = _four(who, "stride", strides)
        self.__dict__["_r"] = _four(who, "rate", rates)
        if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
            raise ValueError("For 'Unfold', the 'padding' must be 'same' or 'valid', but got %s." % (padding,))
        self.ksizes, self.strides, self.rates, self.padding = ksizes, strides, rates, padding.upper()

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError("For 'Unfold', the dimension of input must be 4, but got %d." % x.ndim)
        (kh, kw), (sh, sw), (rh, rw) = self._k, self._s, self._r
        eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
        h, w = x.shape[2], x.shape[3]
        if self.padding == "SAME":
            oh, ow = -(-h // sh), -(-w // sw)
            ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
            x = ops.pad(x, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))
        else:
            oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
            if oh < 1 or ow < 1:
                raise ValueError("For 'Unfold', the input's height and width %s are smaller than the dilated "
                                 "patch (%d, %d)." % ((h, w), eh, ew))
        patches = []
        for i in range(kh):
            for j in range(kw):
                top, left = i * rh, j * rw
                patches.append(x[:, :, top:top + (oh - 1) * sh + 1:sh, left:left + (ow - 1) * sw + 1:sw])
        stacked = ops.stack(patches, 1)                      # (N, kh * kw, C, oh, ow)
        return ops.reshape(stacked, (x.shape[0], -1, oh, ow))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
