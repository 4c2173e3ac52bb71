"""ops.fractional_max_pool2d / 3d (Graham's fractional max pooling with a fixed kernel): along each
spatial axis the window starts are pseudo-random steps drawn from `_random_samples`, start_i =
floor((i + u) * a) - floor(u * a) with a = (in - k) / (out - 1), and the last window ends at the
input's edge. The window maxima are located in NumPy and gathered from the input, so the gradient
flows to each maximum as in MindSpore's kernels. Without `_random_samples` the samples are 0, as
MindSpore's functional form does; samples are read as PyTorch lays them out: (..., 0) for the
width, then the height (and the depth, first, in 3-D)."""
import itertools

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _starts(u, size, out, k):
    if out == 1:
        return np.array([size - k])
    alpha = (size - k) / (out - 1)
    starts = [int(np.floor((i + u) * alpha) - np.floor(u * alpha)) for i in range(out - 1)]
    return np.array(starts + [size - k])


def _tuple(op, name, value, n, cast):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (cast(value),) * n
    if isinstance(value, (tuple, list)) and len(value) == n:
        return tuple(cast(v) for v in value)
    raise ValueError("For '%s', '%s' must be a number or a tuple of %d numbers, but got %s." % (op, name, n, value))


def _fractional(op, x, n, kernel_size, output_size, output_ratio, return_indices, samples):
    U.check_tensor(op, "input_x", x)
    if (output_size is None) == (output_ratio is None):
        raise ValueError("For %s, 'output_size' and 'output_ratio' can not be specified or None at the same time, "
                         "but got %s and %s." % (op, output_ratio, output_size))
    squeeze = x.ndim == n + 1
    if squeeze:
        x = ops.expand_dims(x, 0)
    if x.ndim != n + 2:
        raise ValueError("For '%s', 'input_x' must be %d-D or %d-D, but got %d-D." % (op, n + 1, n + 2, x.ndim))
    spatial = tuple(x.shape[2:])
    ks = _tuple(op, "kernel_size", kernel_size, n, int)
    if output_ratio is not None:
        ratio = _tuple(op, "output_ratio", output_ratio, n, float)
        if not all(0.0 < r <= 1.0 for r in ratio):
            raise ValueError("For '%s', 'output_ratio' must be in (0, 1], but got %s." % (op, ratio))
        outs = tuple(int(s * r) for s, r in zip(spatial, ratio))
    else:
        outs = _tuple(op, "output_size", output_size, n, int)
    for s, k, o in zip(spatial, ks, outs):
        if k < 1 or o < 1 or o + k - 1 > s:
            raise ValueError("For '%s', kernel_size %s and output_size %s do not fit the input size %s."
                             % (op, ks, outs, spatial))
    batch, chans = x.shape[0], x.shape[1]
    if samples is None:
        u = np.zeros((batch, chans, n))
    else:
        U.check_tensor(op, "_random_samples", samples)
        u = U.numpy_of(samples).astype(np.float64)
        if u.shape != (batch, chans, n):
            raise ValueError("For '%s', '_random_samples' must have shape %s, but got %s."
                             % (op, (batch, chans, n), u.shape))
    a = U.numpy_of(x)
    flat_size = int(np.prod(spatial))
    index = np.zeros((batch, chans) + outs, np.int64)
    for b in range(batch):
        for c in range(chans):
            # samples[..., 0] is the last (width) axis
            starts = [_starts(u[b, c, n - 1 - d], spatial[d], outs[d], ks[d]) for d in range(n)]
            plane = a[b, c]
            for pos in itertools.product(*[range(o) for o in outs]):
                lo = [starts[d][pos[d]] for d in range(n)]
                window = plane[tuple(slice(l, l + k) for l, k in zip(lo, ks))]
                local = np.unravel_index(int(np.argmax(window)), ks)
                index[(b, c) + pos] = np.ravel_multi_index(tuple(l + o for l, o in zip(lo, local)), spatial)
    rows = ops.reshape(x, (batch * chans, flat_size))
    offsets = (np.arange(batch * chans, dtype=np.int64) * flat_size).reshape((batch, chans) + (1,) * n)
    y = ops.gather(ops.reshape(rows, (-1,)), U.const((index + offsets).reshape(-1), mstype.int64), 0)
    y = ops.reshape(y, (batch, chans) + outs)
    argmax = U.const(index, mstype.int64)
    if squeeze:
        y, argmax = ops.squeeze(y, 0), ops.squeeze(argmax, 0)
    return (y, argmax) if return_indices else y


@export(_F)
def fractional_max_pool2d(input_x, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    return _fractional("FractionalMaxPool2d", input_x, 2, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples)


@export(_F)
def fractional_max_pool3d(input_x, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    return _fractional("FractionalMaxPool3d", input_x, 3, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples)
