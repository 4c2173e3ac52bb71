"""Pools of MindSpore 2.2 beyond the 1-D and 2-D ones: MaxPool3d and AvgPool3d (the composite
pooling of ops/_functional_pool.py over three spatial axes), AdaptiveAvgPool3d and
AdaptiveMaxPool3d (the adaptive bins of _layers_basic.py), LPPool1d/2d (the p-th root of a summed
window of x^p, ops.lp_pool1d/2d) and MaxUnpool1d/2d/3d (scatters each value to the flat index a max pool returned)."""
import numpy as np

import mindspore.nn as _nn
from mindspore import ops
from mindspore.common import dtype as mstype
from mindspore.nn._layers_basic import _AdaptiveMaxPoolIndices, _AdaptivePool, _mean_keep
from mindspore.nn._layers_pool import (_AVG_OPTIONS, _MAX_OPTIONS, _GeneralPool, _kernel_arg, _options,
                                       _settings)
from mindspore.nn._value_checks import known_values
from mindspore.ops import _functional_pool as _P

__all__ = ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


class _Pool3d(_nn.Cell):
    _who = "MaxPool3d"
    _max = True

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, *args, **kwargs):
        super().__init__()
        who = self._who
        _kernel_arg(who, "kernel_size", kernel_size, 3)
        _kernel_arg(who, "stride", stride, 3)
        options = _options(who, _MAX_OPTIONS if self._max else _AVG_OPTIONS, args, kwargs)
        _settings(who, self._max, pad_mode, padding, options)
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode.upper(), padding
        for name, value in options.items():
            setattr(self, name, value)
        self.__dict__["_general"] = _GeneralPool(who, self._max, kernel_size, stride, pad_mode, padding, options, 3)

    def construct(self, x):
        if x.ndim not in (4, 5):
            raise ValueError("For '%s', the dimension of input must be 4 or 5, but got %d." % (self._who, x.ndim))
        return self.__dict__["_general"](x)

    def extend_repr(self):
        return "kernel_size=%s, stride=%s, pad_mode=%s" % (self.kernel_size, self.stride, self.pad_mode)


class MaxPool3d(_Pool3d):
    """The maximum of each window of (N, C, D, H, W) or (C, D, H, W) input."""
    _who = "MaxPool3d"
    _max = True


class AvgPool3d(_Pool3d):
    """The mean of each window of (N, C, D, H, W) or (C, D, H, W) input."""
    _who = "AvgPool3d"
    _max = False


class AdaptiveAvgPool3d(_AdaptivePool):
    """Averages (N, C, D, H, W) or (C, D, H, W) input into output_size bins (None keeps an axis)."""
    _who = "AdaptiveAvgPool3d"
    _n = 3
    _ndims = (4, 5)
    _reduce = staticmethod(_mean_keep)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolIndices):
    """The maximum of each of output_size bins of (N, C, D, H, W) or (C, D, H, W) input; with
    return_indices also where each maximum lies in the flattened D x H x W volume (int64)."""
    _who = "AdaptiveMaxPool3d"
    _n = 3
    _ndims = (4, 5)


# ------------------------------------------------------------------------------------------------
# LPPool1d / LPPool2d

class _LPPool(_nn.Cell):
    _who = "LPPool1d"
    _n = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        who = self._who
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
            raise TypeError("For '%s', the type of 'norm_type' must be int or float, but got %s."
                            % (who, type(norm_type).__name__))
        if norm_type <= 0:
            raise ValueError("For '%s', the 'norm_type' must be positive, but got %s." % (who, norm_type))
        _kernel_arg(who, "kernel_size", kernel_size, self._n)
        if stride is not None and stride != 0:
            _kernel_arg(who, "stride", stride, self._n)
        if not isinstance(ceil_mode, bool):
            raise TypeError("For '%s', the type of 'ceil_mode' must be bool, but got %s."
                            % (who, type(ceil_mode).__name__))
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x):
        n = self._n
        if x.ndim not in (n + 1, n + 2):
            raise ValueError("For '%s', the dimension of input must be %d or %d, but got %d."
                             % (self._who, n + 1, n + 2, x.ndim))
        pool = ops.lp_pool1d if n == 1 else ops.lp_pool2d
        return pool(x, self.norm_type, self.kernel_size, self.stride or None, self.ceil_mode)

    def extend_repr(self):
        return "norm_type=%s, kernel_size=%s, stride=%s, ceil_mode=%s" % (
            self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool1d(_LPPool):
    """(sum over each window of x^p)^(1/p) of (N, C, L) or (C, L) input."""
    _who = "LPPool1d"
    _n = 1


class LPPool2d(_LPPool):
    """(sum over each window of x^p)^(1/p) of (N, C, H, W) or (C, H, W) input."""
    _who = "LPPool2d"
    _n = 2


# ------------------------------------------------------------------------------------------------
# MaxUnpool1d / 2d / 3d

class _MaxUnpool(_nn.Cell):
    _who = "MaxUnpool1d"
    _n = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        who, n = self._who, self._n
        _kernel_arg(who, "kernel_size", kernel_size, n)
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else _kernel_arg(who, "stride", stride, n)
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
            raise TypeError("For '%s', the type of 'padding' must be int or tuple, but got %s."
                            % (who, type(padding).__name__))
        pads = (padding,) * n if isinstance(padding, int) else tuple(padding)
        if len(pads) == 1:
            pads = pads * n
        if len(pads) != n or any(not isinstance(p, int) or p < 0 for p in pads):
            raise ValueError("For '%s', the 'padding' must be a non-negative int or a tuple of %d of them, but "
                             "got %s." % (who, n, padding))
        self.padding = padding
        self.__dict__["_pads"] = pads

    def _sizes(self, spatial, output_size):
        who, n = self._who, self._n
        k = _P._tuple(who, "kernel_size", self.kernel_size, n)
        s = _P._tuple(who, "stride", self.stride, n)
        default = tuple((i - 1) * st - 2 * p + kk for i, st, p, kk in zip(spatial, s, self._pads, k))
        if output_size is None or len(output_size) == 0:
            return default
        size = tuple(int(v) for v in output_size)[-n:]
        if len(size) != n:
            raise ValueError("For '%s', the 'output_size' must have %d, %d or %d elements, but got %s."
                             % (who, n, n + 1, n + 2, output_size))
        for got, d, st in zip(size, default, s):
            if not d - st < got < d + st:
                raise ValueError("For '%s', the 'output_size' %s must lie between %s and %s (exclusive)."
                                 % (who, size, tuple(a - b for a, b in zip(default, s)),
                                    tuple(a + b for a, b in zip(default, s))))
        return size

    def construct(self, x, indices, output_size=None):
        who, n = self._who, self._n
        if x.ndim not in (n + 1, n + 2):
            raise ValueError("For '%s', the dimension of 'x' must be %d or %d, but got %d." % (who, n + 1, n + 2, x.ndim))
        if tuple(indices.shape) != tuple(x.shape):
            raise ValueError("For '%s', the shape of 'indices' must equal the shape of 'x', but got %s and %s."
                             % (who, tuple(indices.shape), tuple(x.shape)))
        spatial = tuple(x.shape[-n:])
        outs = self._sizes(spatial, output_size)
        total = int(np.prod(outs))
        idx = known_values(indices)
        if idx is not None and idx.size and (idx.min() < 0 or idx.max() >= total):
            raise ValueError("For '%s', the 'indices' must lie in [0, %d) for the output size %s, but got values "
                             "in [%d, %d]." % (who, total, outs, idx.min(), idx.max()))
        lead = tuple(x.shape[:-n])
        planes = int(np.prod(lead))
        flat_x = ops.reshape(x, (planes, -1))
        flat_i = ops.reshape(ops.cast(indices, mstype.int64), (planes, -1))
        out = ops.tensor_scatter_elements(ops.zeros((planes, total), x.dtype), flat_i, flat_x, axis=1)
        return ops.reshape(out, lead + tuple(outs))

    def extend_repr(self):
        return "kernel_size=%s, stride=%s, padding=%s" % (self.kernel_size, self.stride, self.padding)


class MaxUnpool1d(_MaxUnpool):
    """The inverse of MaxPool1d: zeros with each value of x at the flat index indices gives."""
    _who = "MaxUnpool1d"
    _n = 1


class MaxUnpool2d(_MaxUnpool):
    """The inverse of MaxPool2d: zeros with each value of x at the flat index (over H x W)
    indices gives."""
    _who = "MaxUnpool2d"
    _n = 2


class MaxUnpool3d(_MaxUnpool):
    """The inverse of MaxPool3d: zeros with each value of x at the flat index (over D x H x W)
    indices gives."""
    _who = "MaxUnpool3d"
    _n = 3


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
