"""nn.FractionalMaxPool2d and nn.FractionalMaxPool3d: Graham's fractional max pooling.

Along each pooled axis of size L, with kernel k, output size n and a sample u in [0, 1) per
(batch, channel) and axis, the windows start at
    start[i] = int((i + u) * alpha) - int(u * alpha)  for i < n - 1,  start[n - 1] = L - k,
    alpha = (L - k) / (n - 1),
(the rule of MindSpore's and PyTorch's kernels). Each output is the maximum of its window; the
indices are where that maximum lies in the flattened plane (or volume). The windows are gathered
from the input with tensor ops, so gradients flow back to the maxima.

_random_samples holds the samples, shaped (N, C, 2) or (N, C, 3); as in those kernels its first
entry drives the last axis (W) in 2-D and the first axis (D) in 3-D. Without it the samples are
drawn uniformly.
"""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.nn._value_checks import deciding_values

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


def _starts(size, kernel, out, u):
    if out == 1:
        return [size - kernel]
    alpha = (size - kernel) / (out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(out - 1)] + [size - kernel]


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
        batched = x.ndim == nd + 2
        xs = x if batched else ops.expand_dims(x, 0)
        lead, spatial = tuple(xs.shape[:2]), tuple(xs.shape[2:])
        out = self._out_sizes(spatial)
        samples = self._samples(lead)
        # The axis each sample entry drives (see the module's note).
        order = [1, 0] if nd == 2 else [0, 1, 2]
        strides = [int(np.prod(spatial[i + 1:])) for i in range(nd)]
        offsets = np.stack(np.meshgrid(*[np.arange(k) for k in self.kernel_size], indexing="ij"), -1).reshape(-1, nd)
        table = np.zeros(lead + (int(np.prod(out)), len(offsets)), np.int64)
        for n, c in np.ndindex(*lead):
            starts = [None] * nd
            for entry, axis in enumerate(order):
                starts[axis] = _starts(spatial[axis], self.kernel_size[axis], out[axis], samples[n, c, entry])
            corners = np.stack(np.meshgrid(*starts, indexing="ij"), -1).reshape(-1, 1, nd)
            table[n, c] = ((corners + offsets[None]) * strides).sum(-1)
        flat = ops.reshape(xs, lead + (-1,))
        index = Tensor(table.reshape(lead + (-1,)), mstype.int64)
        windows = ops.reshape(ops.gather_elements(flat, 2, index), table.shape)
        y = ops.reshape(ops.amax(windows, -1), lead + out)
        if not batched:
            y = ops.squeeze(y, 0)
        if not self.return_indices:
            return y
        k = ops.expand_dims(ops.cast(ops.argmax(windows, -1), mstype.int64), -1)
        argmax = ops.reshape(ops.gather_elements(Tensor(table, mstype.int64), 3, k), lead + out)
        return y, (argmax if batched else ops.squeeze(argmax, 0))


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling over the last two axes of (N, C, H, W) or (C, H, W) input."""
    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling over the last three axes of (N, C, D, H, W) or (C, D, H, W) input."""
    _nd = 3


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
