"""N-D convolution and pooling (1-D and 3-D; the C++ core has the 2-D kernels) composed from
gathers, a max / mean over the window and one matmul: the window positions come from NumPy, the
values flow through differentiable ops."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _tuple(op, name, value, n):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(isinstance(v, (int, np.integer)) for v in value):
        return tuple(int(v) for v in value)
    raise ValueError("For '%s', the '%s' must be an int or a tuple of %d ints, but got %s." % (op, name, n, value))


def _pads(op, pad, n):
    """(before, after) per spatial dimension from an int, n ints or 2n ints (MindSpore's order:
    head, tail, top, bottom, left, right)."""
    if isinstance(pad, (int, np.integer)):
        return [(int(pad), int(pad))] * n
    pad = tuple(int(v) for v in pad)
    if len(pad) == n:
        return [(p, p) for p in pad]
    if len(pad) == 2 * n:
        return [(pad[2 * i], pad[2 * i + 1]) for i in range(n)]
    raise ValueError("For '%s', the 'pad' must be an int or a tuple of %d or %d ints, but got %s." % (op, n, 2 * n, pad))


def _same_pads(sizes, kernel, stride, dilation):
    out = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        o = -(-size // s)
        total = max((o - 1) * s + (k - 1) * d + 1 - size, 0)
        out.append((total // 2, total - total // 2))
    return out


def _pad_spatial(x, pads, value):
    flat = []
    for before, after in reversed(pads):
        flat += [before, after]
    if not any(flat):
        return x
    return ops.pad(x, tuple(flat), "constant", value)


def _windows(x, kernel, stride, dilation, ceil_mode=False):
    """The list of strided views of x (N, C, *spatial), one per kernel offset, and the output
    spatial shape."""
    n = len(kernel)
    sizes = tuple(x.shape[2:])
    outs = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        span = (k - 1) * d + 1
        o = (size - span) // s + 1 if not ceil_mode else -(-(size - span) // s) + 1
        if o <= 0:
            raise ValueError("The output size %d is too small: the input (%d) is smaller than the window (%d)."
                             % (o, size, span))
        outs.append(o)
    views = []
    for offset in np.ndindex(*kernel):
        v = x
        for axis in range(n):
            idx = offset[axis] * dilation[axis] + np.arange(outs[axis]) * stride[axis]
            idx = np.minimum(idx, sizes[axis] - 1)
            v = ops.gather(v, U.const(idx, mstype.int64), 2 + axis)
        views.append(v)
    return views, tuple(outs)


def _conv(op, x, weight, bias, stride, pad_mode, padding, dilation, groups, n):
    U.check_tensor(op, "input", x)
    U.check_tensor(op, "weight", weight)
    if x.ndim != n + 2 or weight.ndim != n + 2:
        raise ValueError("For '%s', the 'input' and 'weight' must be %d-D, but got %d-D and %d-D."
                         % (op, n + 2, x.ndim, weight.ndim))
    kernel = tuple(weight.shape[2:])
    stride = _tuple(op, "stride", stride, n)
    dilation = _tuple(op, "dilation", dilation, n)
    c_in = x.shape[1]
    c_out = weight.shape[0]
    if c_in % groups or c_out % groups or weight.shape[1] * groups != c_in:
        raise ValueError("For '%s', the channels of 'input' (%d) must equal weight.shape[1] (%d) * groups (%d)."
                         % (op, c_in, weight.shape[1], groups))
    mode = pad_mode.lower()
    U.check_str(op, "pad_mode", mode, ("valid", "same", "pad"))
    if mode == "pad":
        pads = _pads(op, padding, n)
    elif mode == "same":
        pads = _same_pads(tuple(x.shape[2:]), kernel, stride, dilation)
    else:
        pads = [(0, 0)] * n
    x = _pad_spatial(x, pads, 0)
    views, out_shape = _windows(x, kernel, stride, dilation)
    k = len(views)
    batch = x.shape[0]
    length = int(np.prod(out_shape, dtype=np.int64))
    cols = ops.stack(tuple(views), 2)  # (N, C, K, *out)
    cols = ops.reshape(cols, (batch, groups, c_in // groups * k, length))
    w = ops.reshape(weight, (groups, c_out // groups, c_in // groups * k))
    outs = ops.matmul(ops.expand_dims(w, 0), cols)  # (N, G, O/G, L)
    out = ops.reshape(outs, (batch, c_out) + out_shape)
    if bias is not None:
        out = out + ops.reshape(bias, (1, c_out) + (1,) * n)
    return out


@export(_F)
def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    return _conv("conv3d", input, weight, bias, stride, pad_mode, padding, dilation, groups, 3)


@export(_F)
def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    return _conv("conv1d", input, weight, bias, stride, pad_mode, padding, dilation, groups, 1)


def _pool(op, x, kernel_size, stride, padding, dilation, ceil_mode, n, how, pad_mode="pad",
          count_include_pad=True, divisor_override=None):
    U.check_tensor(op, "x", x)
    if x.ndim not in (n + 1, n + 2):
        raise ValueError("For '%s', the 'x' must be %d-D or %d-D, but got %d-D." % (op, n + 1, n + 2, x.ndim))
    unbatched = x.ndim == n + 1
    if unbatched:
        x = ops.expand_dims(x, 0)
    kernel = _tuple(op, "kernel_size", kernel_size, n)
    stride = kernel if stride is None else _tuple(op, "stride", stride, n)
    dilation = _tuple(op, "dilation", dilation, n)
    mode = pad_mode.lower()
    if mode == "same":
        pads = _same_pads(tuple(x.shape[2:]), kernel, stride, dilation)
    elif mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = _pads(op, padding, n)
    fill = float("-inf") if how == "max" else 0.0
    padded = _pad_spatial(x, pads, fill) if x.dtype in U._ALL_FLOATS else _pad_spatial(x, pads, 0)
    views, out_shape = _windows(padded, kernel, stride, dilation, ceil_mode)
    stacked = ops.stack(tuple(views), 2)
    if how == "max":
        out = ops.amax(stacked, 2)
    else:
        total = ops.sum(stacked, 2)
        if divisor_override:
            out = total / float(divisor_override)
        elif count_include_pad or not any(p for pair in pads for p in pair):
            out = total / float(len(views))
        else:
            ones = ops.ones((1, 1) + tuple(x.shape[2:]), x.dtype)
            cnt_views, _ = _windows(_pad_spatial(ones, pads, 0), kernel, stride, dilation, ceil_mode)
            out = total / ops.sum(ops.stack(tuple(cnt_views), 2), 2)
    return ops.squeeze(out, 0) if unbatched else out


@export(_F)
def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out = _pool("max_pool3d", x, kernel_size, stride, padding, dilation, ceil_mode, 3, "max")
    if return_indices:
        raise NotImplementedError("For 'max_pool3d', return_indices is not supported by gradstep yet.")
    return out


@export(_F)
def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    return _pool("avg_pool3d", input_x, kernel_size, stride, padding, 1, ceil_mode, 3, "avg",
                 count_include_pad=count_include_pad, divisor_override=divisor_override)


@export(_F)
def max_pool1d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _pool("max_pool1d", x, kernel_size, stride, padding, dilation, ceil_mode, 1, "max")


@export(_F)
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    return _pool("avg_pool1d", input_x, kernel_size, stride, padding, 1, ceil_mode, 1, "avg",
                 count_include_pad=count_include_pad)
