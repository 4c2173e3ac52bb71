"""The indices adaptive max pooling returns: where each bin's first maximum lies in the input's
flattened spatial plane (or volume), computed with tensor ops so the pools also compile."""
import numpy as np

from mindspore import ops
from mindspore.common import dtype as mstype


def _bins(size, out):
    return [((j * size) // out, -(-((j + 1) * size) // out)) for j in range(out)]


def adaptive_argmax(x, sizes):
    """int64 indices, shaped as the pooled output, of the maxima of x's adaptive bins over its
    last len(sizes) axes (None keeps an axis)."""
    n = len(sizes)
    spatial = tuple(x.shape[-n:])
    lead = tuple(x.shape[:-n])
    outs = [s if o is None else o for o, s in zip(sizes, spatial)]
    strides = [int(np.prod(spatial[i + 1:])) for i in range(n)]
    flat_bins = []
    for corner in np.ndindex(*outs):
        ranges = [_bins(spatial[i], outs[i])[corner[i]] for i in range(n)]
        window = x[(Ellipsis,) + tuple(slice(a, b) for a, b in ranges)]
        extent = [b - a for a, b in ranges]
        k = ops.cast(ops.argmax(ops.reshape(window, lead + (-1,)), -1), mstype.int64)
        index = ops.zeros_like(k)
        # Unravel k over the window's extent, offset by the window's corner.
        for i in range(n):
            inner = int(np.prod(extent[i + 1:]))
            coordinate = ops.floor_divide(k, inner) % extent[i] + ranges[i][0]
            index = index + coordinate * strides[i]
        flat_bins.append(index)
    stacked = ops.stack(flat_bins, -1)
    return ops.stop_gradient(ops.reshape(stacked, lead + tuple(outs)))
