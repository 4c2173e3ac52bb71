"""nn.FractionalMaxPool2d and nn.FractionalMaxPool3d: Graham's fractional max pooling, the pooling
of ops.fractional_max_pool2d / 3d (ops/_functional_fractional_pool.py: the window rule, the
sample order) with the Cells' argument checks. _random_samples holds the samples, shaped (N, C, 2)
or (N, C, 3); without it they are drawn uniformly on each call.
"""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.nn._value_checks import deciding_values
from mindspore.ops._functional_fractional_pool import pool_windows

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


def _tuple(who, name, value, nd, kind):
    values = (value,) * nd if isinstance(value, (int, float)) and not isinstance(value, bool) else value
    if not isinstance(values, (tuple, list)) or len(values) != nd \
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values):
        raise ValueError("For '%s', the '%s' must be a %s or a tuple of %d %ss, but got %s."
                         % (who, name, kind, nd, kind, value))
    return tuple(values)


class _FractionalMaxPool(_nn.Cell):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        who, nd = type(self).__name__, self._nd
        self.kernel_size = tuple(int(k) for k in _tuple(who, "kernel_size", kernel_size, nd, "int"))
        if any(k < 1 for k in self.kernel_size):
            raise ValueError("For '%s', the 'kernel_size' must be positive, but got %s." % (who, kernel_size))
        if output_size is None and output_ratio is None:
            raise ValueError("For '%s', 'output_size' and 'output_ratio' can not be None at the same time." % who)
        self.output_size = None if output_size is None else \
            tuple(int(s) for s in _tuple(who, "output_size", output_size, nd, "int"))
        self.output_ratio = None if output_ratio is None else _tuple(who, "output_ratio", output_ratio, nd, "float")
        if self.output_ratio is not None and any(not 0 < r < 1 for r in self.output_ratio):
            raise ValueError("For '%s', the 'output_ratio' must be in (0, 1), but got %s." % (who, output_ratio))
        if not isinstance(return_indices, bool):
            raise TypeError("For '%s', the 'return_indices' must be a bool, but got %s."
                            % (who, type(return_indices).__name__))
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def _out_sizes(self, spatial):
        who = type(self).__name__
        if self.output_size is not None:
            out = self.output_size
        else:
            out = tuple(int(s * r) for s, r in zip(spatial, self.output_ratio))
        for s, k, o in zip(spatial, self.kernel_size, out):
            if o < 1 or o + k - 1 > s:
                raise ValueError("For '%s', the output size %s plus the kernel size %s minus 1 must not exceed "
                                 "the input size %s." % (who, out, self.kernel_size, spatial))
        return out

    def _samples(self, lead):
        who, nd = type(self).__name__, self._nd
        if self._random_samples is None:
            return ops.uniform((lead[0], lead[1], nd), Tensor(0.0, mstype.float32),
                               Tensor(1.0, mstype.float32)).asnumpy()
        samples = deciding_values(who, self._random_samples).astype(np.float64)
        if samples.shape != (lead[0], lead[1], nd):
            raise ValueError("For '%s', the '_random_samples' must have shape %s, but got %s."
                             % (who, (lead[0], lead[1], nd), samples.shape))
        return samples

    def construct(self, x):
        nd, who = self._nd, type(self).__name__
        if x.ndim not in (nd + 1, nd + 2):
            raise ValueError("For '%s', the input must be %d-D or %d-D, but got %d-D." % (who, nd + 1, nd + 2, x.ndim))
        lead = (1,) * (nd + 2 - x.ndim) + tuple(x.shape[:x.ndim - nd])
        out = self._out_sizes(tuple(x.shape[-nd:]))
        return pool_windows(x, self.kernel_size, out, self._samples(lead), self.return_indices)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling over the last two axes of (N, C, H, W) or (C, H, W) input."""
    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling over the last three axes of (N, C, D, H, W) or (C, D, H, W) input."""
    _nd = 3


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
