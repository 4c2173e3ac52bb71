"""ops.fractional_max_pool2d / 3d, and the pooling nn.FractionalMaxPool2d / 3d share (Graham's
fractional max pooling with a fixed kernel). Along each pooled axis of size L, with kernel k, output
size n and a sample u in [0, 1) per (batch, channel) and axis, the windows start at
    start[i] = int((i + u) * alpha) - int(u * alpha)  for i < n - 1,  start[n - 1] = L - k,
    alpha = (L - k) / (n - 1)
(the rule of MindSpore's and PyTorch's kernels), and the sample entries drive the axes as those
kernels read them: in 2-D the first entry the last axis (W), then H; in 3-D D, H, W in order.
Each output is the maximum of its window, gathered from the input with tensor ops, so gradients
flow back to the maxima; the indices are where the maxima lie in the flattened plane (volume).
The functional form takes samples of 0 when none are given, as MindSpore's does; the Cells draw
them."""
import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _starts(size, kernel, out, u):
    if out == 1:
        return [size - kernel]
    alpha = (size - kernel) / (out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(out - 1)] + [size - kernel]


def pool_windows(x, kernel_size, out, samples, return_indices):
    """The pooling of x (N, C, *spatial), or unbatched (C, *spatial), over windows of kernel_size
    placed by samples (a NumPy array (N, C, nd), N = 1 unbatched) to the output size out;
    (y, argmax) with return_indices."""
    nd = len(kernel_size)
    if x.ndim == nd + 1:
        result = pool_windows(ops.expand_dims(x, 0), kernel_size, out, samples, return_indices)
        return tuple(ops.squeeze(r, 0) for r in result) if return_indices else ops.squeeze(result, 0)
    lead, spatial = tuple(x.shape[:2]), tuple(x.shape[2:])
    order = [1, 0] if nd == 2 else [0, 1, 2]  # the axis each sample entry drives
    strides = [int(np.prod(spatial[i + 1:])) for i in range(nd)]
    offsets = np.stack(np.meshgrid(*[np.arange(k) for k in kernel_size], indexing="ij"), -1).reshape(-1, nd)
    table = np.zeros(lead + (int(np.prod(out)), len(offsets)), np.int64)
    for n, c in np.ndindex(*lead):
        starts = [None] * nd
        for entry, axis in enumerate(order):
            starts[axis] = _starts(spatial[axis], kernel_size[axis], out[axis], samples[n, c, entry])
        corners = np.stack(np.meshgrid(*starts, indexing="ij"), -1).reshape(-1, 1, nd)
        table[n, c] = ((corners + offsets[None]) * strides).sum(-1)
    flat = ops.reshape(x, lead + (-1,))
    windows = ops.reshape(ops.gather_elements(flat, 2, Tensor(table.reshape(lead + (-1,)), mstype.int64)),
                          table.shape)
    y = ops.reshape(ops.amax(windows, -1), lead + tuple(out))
    if not return_indices:
        return y
    k = ops.expand_dims(ops.cast(ops.argmax(windows, -1), mstype.int64), -1)
    return y, ops.reshape(ops.gather_elements(Tensor(table, mstype.int64), 3, k), lead + tuple(out))


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
    if x.ndim not in (n + 1, n + 2):
        raise ValueError("For '%s', 'input_x' must be %d-D or %d-D, but got %d-D." % (op, n + 1, n + 2, x.ndim))
    spatial = tuple(x.shape[-n:])
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
    batch, chans = (1,) * (n + 2 - x.ndim) + tuple(x.shape[:x.ndim - n])
    if samples is None:
        u = np.zeros((batch, chans, n))
    else:
        U.check_tensor(op, "_random_samples", samples)
        u = U.numpy_of(samples).astype(np.float64)
        if u.shape != (batch, chans, n):
            raise ValueError("For '%s', '_random_samples' must have shape %s, but got %s."
                             % (op, (batch, chans, n), u.shape))
    return pool_windows(x, ks, outs, u, return_indices)


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
