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


def _out_sizes(sizes, pads, kernel, stride, dilation, ceil_mode):
    """The output size per spatial dimension of a window sweep over sizes padded by pads; with
    ceil_mode a last, partial window counts unless it would start inside the trailing padding
    (MindSpore's and PyTorch's rule)."""
    outs = []
    for size, (before, after), k, s, d in zip(sizes, pads, kernel, stride, dilation):
        span = (k - 1) * d + 1
        room = size + before + after - span
        o = (room // s if not ceil_mode else -(-room // s)) + 1
        if ceil_mode and (o - 1) * s >= size + before:
            o -= 1
        if o <= 0:
            raise ValueError("The output size %d is too small: the input (%d, padded %d + %d) is smaller than "
                             "the window (%d)." % (o, size, before, after, span))
        outs.append(o)
    return tuple(outs)


def _windows(x, kernel, stride, dilation, ceil_mode=False, outs=None):
    """The list of strided views of x (N, C, *spatial), one per kernel offset, and the output
    spatial shape. `outs` (from _out_sizes) may ask for windows reaching past x's end: the caller
    pads x that far first."""
    n = len(kernel)
    sizes = tuple(x.shape[2:])
    if outs is None:
        outs = _out_sizes(sizes, [(0, 0)] * n, kernel, stride, dilation, ceil_mode)
    views = []
    for offset in np.ndindex(*kernel):
        v = x
        for axis in range(n):
            idx = offset[axis] * dilation[axis] + np.arange(outs[axis]) * stride[axis]
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
          count_include_pad=True, divisor_override=None, return_indices=False):
    """Max or average pooling of (N, C, *spatial) or (C, *spatial) input over n spatial
    dimensions, with MindSpore's padding, dilation, ceil_mode, count_include_pad and
    divisor_override; with return_indices also the argmax of each window as an index into the
    flattened spatial plane of the input (the first maximum; int64)."""
    U.check_tensor(op, "x", x)
    if x.ndim not in (n + 1, n + 2):
        raise ValueError("For '%s', the 'x' must be %d-D or %d-D, but got %d-D." % (op, n + 1, n + 2, x.ndim))
    unbatched = x.ndim == n + 1
    if unbatched:
        x = ops.expand_dims(x, 0)
    kernel = _tuple(op, "kernel_size", kernel_size, n)
    stride = kernel if stride is None or stride == 0 else _tuple(op, "stride", stride, n)
    dilation = _tuple(op, "dilation", dilation, n)
    sizes = tuple(x.shape[2:])
    mode = pad_mode.lower()
    if mode == "same":
        pads = _same_pads(sizes, kernel, stride, dilation)
    elif mode == "valid":
        pads = [(0, 0)] * n
    else:
        pads = _pads(op, padding, n)
        for (before, after), k in zip(pads, kernel):
            if max(before, after) > k // 2:
                raise ValueError("For '%s', the padding (%d) must be at most half the kernel size (%d)."
                                 % (op, max(before, after), k))
    outs = _out_sizes(sizes, pads, kernel, stride, dilation, ceil_mode)
    # ceil_mode's last windows may reach past the padding: they are padded further, and that part
    # never counts (the maximum ignores it; no divisor includes it).
    extra = [max((o - 1) * s + (k - 1) * d + 1 - (size + b + a), 0)
             for o, s, k, d, size, (b, a) in zip(outs, stride, kernel, dilation, sizes, pads)]
    full = [(b, a + e) for (b, a), e in zip(pads, extra)]
    fill = float("-inf") if how == "max" and x.dtype in U._ALL_FLOATS else 0.0
    views, _ = _windows(_pad_spatial(x, full, fill), kernel, stride, dilation, outs=outs)
    stacked = ops.stack(tuple(views), 2)
    if how == "max":
        out = ops.amax(stacked, 2)
        if return_indices:
            out = (out, _argmax_indices(stacked, sizes, pads, kernel, stride, dilation, outs))
    else:
        total = ops.sum(stacked, 2)
        if divisor_override:
            out = total / float(divisor_override)
        elif count_include_pad and not any(extra):
            out = total / float(len(views))
        else:
            # What each window covers: the input, and the padding too with count_include_pad.
            inside = ops.ones((1, 1) + sizes, x.dtype)
            if count_include_pad:
                inside = _pad_spatial(inside, pads, 1.0)
                covered = [(0, e) for e in extra]
            else:
                covered = full
            counts, _ = _windows(_pad_spatial(inside, covered, 0.0), kernel, stride, dilation, outs=outs)
            out = total / ops.sum(ops.stack(tuple(counts), 2), 2)
    if unbatched:
        return tuple(ops.squeeze(o, 0) for o in out) if isinstance(out, tuple) else ops.squeeze(out, 0)
    return out


def _argmax_indices(stacked, sizes, pads, kernel, stride, dilation, outs):
    """Where each window's first maximum lies in the unpadded input, flattened over the spatial
    dimensions (no gradient: indices)."""
    choice = ops.argmax(stacked, 2)                            # (N, C, *outs): the kernel offset
    offsets = np.array(list(np.ndindex(*kernel)))              # (K, n)
    flat = np.zeros((len(offsets),) + tuple(outs), np.int64)
    for axis, (size, (before, _), s, d) in enumerate(zip(sizes, pads, stride, dilation)):
        shape = [1] * (len(outs) + 1)
        shape[axis + 1] = outs[axis]
        position = np.arange(outs[axis]).reshape(shape) * s - before
        coordinate = offsets[:, axis].reshape((-1,) + (1,) * len(outs)) * d + position
        flat = flat * size + coordinate
    # A gather of the constant positions by the (runtime) choice, so it also compiles in graph mode.
    table = ops.broadcast_to(U.const(flat[None, None], mstype.int64), tuple(choice.shape[:2]) + flat.shape)
    picked = ops.gather_elements(table, 2, ops.expand_dims(ops.cast(choice, mstype.int64), 2))
    return ops.stop_gradient(ops.squeeze(picked, 2))


@export(_F)
def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _pool("max_pool3d", x, kernel_size, stride, padding, dilation, ceil_mode, 3, "max",
                 return_indices=return_indices)


@export(_F)
def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    return _pool("avg_pool3d", input_x, kernel_size, stride, padding, 1, ceil_mode, 3, "avg",
                 count_include_pad=count_include_pad, divisor_override=divisor_override)


@export(_F)
def max_pool1d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _pool("max_pool1d", x, kernel_size, stride, padding, dilation, ceil_mode, 1, "max",
                 return_indices=return_indices)


@export(_F)
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    return _pool("avg_pool1d", input_x, kernel_size, stride, padding, 1, ceil_mode, 1, "avg",
                 count_include_pad=count_include_pad)


# ops.max_pool2d / avg_pool2d: the C++ kernels serve the plain cases (no padding, dilation,
# ceil_mode, indices or divisor); the rest is the composite above.
_cpp_max_pool2d = getattr(ops.max_pool2d, "_cpp", ops.max_pool2d)
_cpp_avg_pool2d = getattr(ops.avg_pool2d, "_cpp", ops.avg_pool2d)


def _is_zero(padding):
    return padding == 0 or (isinstance(padding, (tuple, list)) and not any(padding))


def _is_one(value):
    return value == 1 or (isinstance(value, (tuple, list)) and all(v == 1 for v in value))


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    if _is_zero(padding) and _is_one(dilation) and not return_indices and not ceil_mode:
        return _cpp_max_pool2d(x, kernel_size, stride, padding, dilation, return_indices, ceil_mode)
    return _pool("MaxPool", x, kernel_size, stride, padding, dilation, ceil_mode, 2, "max",
                 return_indices=return_indices)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if _is_zero(padding) and not ceil_mode and not divisor_override:
        return _cpp_avg_pool2d(input_x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _pool("AvgPool", input_x, kernel_size, stride, padding, 1, ceil_mode, 2, "avg",
                 count_include_pad=count_include_pad, divisor_override=divisor_override)


max_pool2d._cpp = _cpp_max_pool2d
avg_pool2d._cpp = _cpp_avg_pool2d
U.export(_F, force=True)(max_pool2d)
U.export(_F, force=True)(avg_pool2d)
