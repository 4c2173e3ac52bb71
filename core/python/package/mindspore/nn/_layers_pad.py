"""ReflectionPad1d/2d/3d and ReplicationPad1d/2d/3d of MindSpore 2.2: the last axes padded by
mirroring (without the edge) or by repeating the edge, through ops.pad's gathers (so gradients
flow back to the positions copied). A tuple pads as many trailing axes as it has pairs."""
import mindspore.nn as _nn
from mindspore import ops

__all__ = ["ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]


class _MirrorPadNd(_nn.Cell):
    _who = "ReflectionPad1d"
    _n = 1
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__()
        who, n = self._who, self._n
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * n)
        if not isinstance(padding, tuple):
            raise TypeError("For '%s' the input 'padding' must be an integer or tuple, but got %s"
                            % (who, type(padding).__name__))
        if len(padding) % 2:
            raise ValueError("For '%s' the length of input 'padding' must be divisible by 2, but got padding of "
                             "length %d." % (who, len(padding)))
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise TypeError("For '%s' every element in 'padding' must be integer, but got %s." % (who, padding))
        # Reflection cannot pad by a negative amount; replication crops then (as PadV3 does).
        if self._mode == "reflect" and any(p < 0 for p in padding):
            raise ValueError("For '%s' every element in 'padding' must be >= 0, but got %s." % (who, padding))
        self.padding = padding

    def construct(self, x):
        who, n = self._who, self._n
        pairs = len(self.padding) // 2
        if self._mode == "replicate" and x.ndim not in (n + 1, n + 2):
            raise ValueError("For '%s', the dimension of input must be %d or %d, but got %d."
                             % (who, n + 1, n + 2, x.ndim))
        if x.ndim < pairs:
            raise ValueError("For '%s', for padding with length %d, the dimension of the tensor should be at least "
                             "%d, but got %d." % (who, len(self.padding), pairs, x.ndim))
        if self._mode == "reflect":
            for k in range(pairs):
                size = x.shape[x.ndim - 1 - k]
                before, after = self.padding[2 * k], self.padding[2 * k + 1]
                if before >= size or after >= size:
                    raise ValueError("For '%s', the padding (%d, %d) of dimension %d must be less than its "
                                     "size %d, but got input shape %s."
                                     % (who, before, after, x.ndim - 1 - k, size, tuple(x.shape)))
        return ops.pad(x, self.padding, self._mode)


class ReflectionPad1d(_MirrorPadNd):
    """Pads the last axis of (C, W) or (N, C, W) input by reflection: padding int or (left, right)."""
    _who, _n, _mode = "ReflectionPad1d", 1, "reflect"


class ReflectionPad2d(_MirrorPadNd):
    """Pads the last two axes of 3-D or 4-D input by reflection: padding int or (left, right, top,
    bottom)."""
    _who, _n, _mode = "ReflectionPad2d", 2, "reflect"


class ReflectionPad3d(_MirrorPadNd):
    """Pads the last three axes of 4-D or 5-D input by reflection: padding int or (left, right, top,
    bottom, front, back)."""
    _who, _n, _mode = "ReflectionPad3d", 3, "reflect"


class ReplicationPad1d(_MirrorPadNd):
    """Pads the last axis of (C, W) or (N, C, W) input by repeating its edges."""
    _who, _n, _mode = "ReplicationPad1d", 1, "replicate"


class ReplicationPad2d(_MirrorPadNd):
    """Pads the last two axes of 3-D or 4-D input by repeating their edges."""
    _who, _n, _mode = "ReplicationPad2d", 2, "replicate"


class ReplicationPad3d(_MirrorPadNd):
    """Pads the last three axes of 4-D or 5-D input by repeating their edges."""
    _who, _n, _mode = "ReplicationPad3d", 3, "replicate"


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
