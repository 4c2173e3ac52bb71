"""Cells of MindSpore 2.2 that pad or resize: Pad (CONSTANT, REFLECT, SYMMETRIC), Upsample (over
ops.interpolate), PixelShuffle and PixelUnshuffle (over ops.pixel_shuffle / pixel_unshuffle).
REFLECT and SYMMETRIC gather mirrored indices, so their gradients add up where an element is copied."""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

__all__ = ["Pad", "Upsample", "PixelShuffle", "PixelUnshuffle"]


def _mirror_index(size, before, after, mode):
    """Indices into an axis of `size` for the padded axis (REFLECT skips the edge, SYMMETRIC repeats it)."""
    shift = 1 if mode == "REFLECT" else 0
    left = [before - i - 1 + shift for i in range(before)]
    right = [size - 1 - i - shift for i in range(after)]
    return np.array(left + list(range(size)) + right, np.int32)


class Pad(_nn.Cell):
    """paddings[i] = (before, after) for axis i; CONSTANT pads zeros, REFLECT mirrors without the
    edge, SYMMETRIC mirrors with it."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
                for p in paddings):
            raise TypeError("For 'Pad', the 'paddings' must be a tuple of (int, int) pairs, but got %r." % (paddings,))
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError("For 'Pad', the 'mode' must be in ['CONSTANT', 'REFLECT', 'SYMMETRIC'], but got '%s'."
                             % mode)
        if any(v < 0 for p in paddings for v in p):
            raise ValueError("For 'Pad', all elements of 'paddings' must be >= 0, but got %r." % (paddings,))
        self.paddings, self.mode = paddings, mode

    def construct(self, x):
        if len(self.paddings) != x.ndim:
            raise ValueError("For 'Pad', the length of 'paddings' must equal the rank of the input %d, but got %d."
                             % (x.ndim, len(self.paddings)))
        for axis, (before, after) in enumerate(self.paddings):
            if not before and not after:
                continue
            size = x.shape[axis]
            if self.mode == "CONSTANT":
                x = ops.pad(x, (0, 0) * (x.ndim - 1 - axis) + (before, after))
                continue
            limit = size - 1 if self.mode == "REFLECT" else size
            if before > limit or after > limit:
                raise ValueError("For 'Pad', in mode %s the paddings of axis %d must be at most %d, but got (%d, %d)."
                                 % (self.mode, axis, limit, before, after))
            x = ops.gather(x, Tensor(_mirror_index(size, before, after, self.mode), mstype.int32), axis)
        return x


class Upsample(_nn.Cell):
    """ops.interpolate(x, size, scale_factor, mode, align_corners, recompute_scale_factor)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


def _check_factor(who, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s." % (who, name, type(value).__name__))
    if value <= 0:
        raise ValueError("For '%s', the '%s' must be a positive int, but got %d." % (who, name, value))
    return value


class PixelShuffle(_nn.Cell):
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _check_factor("PixelShuffle", "upscale_factor", upscale_factor)

    def construct(self, x):
        return ops.pixel_shuffle(x, self.upscale_factor)


class PixelUnshuffle(_nn.Cell):
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _check_factor("PixelUnshuffle", "downscale_factor", downscale_factor)

    def construct(self, x):
        return ops.pixel_unshuffle(x, self.downscale_factor)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
