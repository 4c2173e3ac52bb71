"""Resizing (interpolate, the Resize* primitives' kernels), transposed convolution, adaptive
max pooling and a few training utilities of mindspore.ops, composed from gradstep's C++ ops:
sampling positions and weights come from NumPy, values flow through gather / mul / conv2d."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


# ---------------------------------------------------------------- resizing
def _nearest_index(size_in, size_out, rule):
    dst = np.arange(size_out, dtype=np.float64)
    if rule == "align_corners":
        scale = (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
        src = np.round(dst * scale)
    elif rule == "half_pixel":
        src = np.floor((dst + 0.5) * size_in / size_out)
    else:
        src = np.floor(dst * size_in / size_out)
    return np.clip(src, 0, size_in - 1).astype(np.int64)


def _linear_taps(size_in, size_out, rule, scale=None):
    """(lower index, upper index, upper weight) per output position."""
    dst = np.arange(size_out, dtype=np.float64)
    if rule == "align_corners":
        src = dst * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    else:
        ratio = 1.0 / scale if scale else size_in / size_out
        if rule == "half_pixel":
            src = np.maximum((dst + 0.5) * ratio - 0.5, 0.0)
        else:
            src = dst * ratio
    lo = np.clip(np.floor(src), 0, size_in - 1).astype(np.int64)
    hi = np.minimum(lo + 1, size_in - 1)
    w = np.clip(src - lo, 0.0, 1.0)
    return lo, hi, w


def _resize_axis_nearest(x, axis, size_out, rule):
    return ops.gather(x, U.const(_nearest_index(x.shape[axis], size_out, rule), mstype.int64), axis)


def _resize_axis_linear(x, axis, size_out, rule, scale=None):
    lo, hi, w = _linear_taps(x.shape[axis], size_out, rule, scale)
    a = ops.gather(x, U.const(lo, mstype.int64), axis)
    b = ops.gather(x, U.const(hi, mstype.int64), axis)
    view = [1] * x.ndim
    view[axis] = -1
    wt = U.const(w.reshape(view), U.float_dtype(x))
    return a + (b - a) * wt


def _output_sizes(op, x, size, scale_factor):
    n = x.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("For '%s', exactly one of 'size' and 'scale_factor' must be given." % op)
    if size is not None:
        sizes = (size,) * n if isinstance(size, int) else tuple(int(s) for s in size)
        if len(sizes) != n:
            raise ValueError("For '%s', the 'size' must have %d elements for a %d-D input, but got %s."
                             % (op, n, x.ndim, size))
        return sizes, (None,) * n
    scales = (scale_factor,) * n if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
    if len(scales) != n:
        raise ValueError("For '%s', the 'scale_factor' must have %d elements, but got %s." % (op, n, scale_factor))
    return tuple(int(np.floor(d * s)) for d, s in zip(x.shape[2:], scales)), scales


@export(_F)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resizes the spatial dimensions of (N, C, ...) with 'nearest', 'nearest-exact', 'linear',
    'bilinear', 'trilinear' or 'area'."""
    U.check_tensor("interpolate", "input", input)
    modes = ("nearest", "nearest-exact", "linear", "bilinear", "trilinear", "area")
    U.check_str("interpolate", "mode", mode, modes)
    if input.ndim < 3:
        raise ValueError("For 'interpolate', the 'input' must be at least 3-D, but got %d-D." % input.ndim)
    if align_corners is not None and mode in ("nearest", "nearest-exact", "area"):
        raise ValueError("For 'interpolate', 'align_corners' is only valid for the linear modes, but got mode '%s'."
                         % mode)
    sizes, scales = _output_sizes("interpolate", input, size, scale_factor)
    if recompute_scale_factor:
        scales = (None,) * len(sizes)
    if mode == "area":
        return adaptive_avg_poolnd(input, sizes)
    x = input if input.dtype in U._FLOATS else input.astype(mstype.float32)
    for i, out in enumerate(sizes):
        axis = 2 + i
        if mode == "nearest":
            if scales[i]:
                src = np.floor(np.arange(out) / scales[i])
                idx = np.clip(src, 0, x.shape[axis] - 1).astype(np.int64)
                x = ops.gather(x, U.const(idx, mstype.int64), axis)
            else:
                x = _resize_axis_nearest(x, axis, out, "asymmetric")
        elif mode == "nearest-exact":
            x = _resize_axis_nearest(x, axis, out, "half_pixel")
        else:
            x = _resize_axis_linear(x, axis, out, "align_corners" if align_corners else "half_pixel", scales[i])
    return x


@export(_F)
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def adaptive_avg_poolnd(x, sizes):
    for i, out in enumerate(sizes):
        axis = 2 + i
        n = x.shape[axis]
        parts = []
        for j in range(out):
            s, e = (j * n) // out, -(-((j + 1) * n) // out)
            parts.append(ops.mean(ops.narrow(x, axis, s, e - s), axis, True))
        x = ops.concat(tuple(parts), axis)
    return x


@export(_F)
def adaptive_avg_pool3d(input, output_size):
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(
        d if o is None else o for o, d in zip(output_size, input.shape[-3:]))
    return adaptive_avg_poolnd(input, sizes)


@export(_F)
def adaptive_max_pool2d(input, output_size, return_indices=False):
    U.check_tensor("adaptive_max_pool2d", "input", input)
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else output_size
    h, w = input.shape[-2], input.shape[-1]
    oh = h if oh is None else oh
    ow = w if ow is None else ow
    rows, idx_rows = [], []
    a = U.numpy_of(input) if return_indices else None
    for i in range(oh):
        hs, he = (i * h) // oh, -(-((i + 1) * h) // oh)
        band = ops.narrow(input, input.ndim - 2, hs, he - hs)
        cols, idx_cols = [], []
        for j in range(ow):
            ws, we = (j * w) // ow, -(-((j + 1) * w) // ow)
            cols.append(ops.amax(ops.narrow(band, input.ndim - 1, ws, we - ws), (-2, -1), True))
            if return_indices:
                win = a[..., hs:he, ws:we].reshape(a.shape[:-2] + (-1,))
                k = win.argmax(-1)
                idx_cols.append(((hs + k // (we - ws)) * w + ws + k % (we - ws))[..., None, None])
        rows.append(ops.concat(tuple(cols), -1))
        if return_indices:
            idx_rows.append(np.concatenate(idx_cols, -1))
    out = ops.concat(tuple(rows), -2)
    if return_indices:
        return out, U.const(np.concatenate(idx_rows, -2), mstype.int64)
    return out


@export(_F)
def adaptive_max_pool3d(x, output_size, return_indices=False):
    """nn.AdaptiveMaxPool3d as a function; the indices (into the flattened D x H x W volume) are
    int32 here, as MindSpore's functional form documents."""
    from mindspore import nn
    out = nn.AdaptiveMaxPool3d(output_size, return_indices)(x)
    if return_indices:
        return out[0], out[1].astype(mstype.int32)
    return out


@export(_F)
def iou(anchor_boxes, gt_boxes, mode="iou"):
    """(M, N) overlap of each of M ground-truth boxes with each of N anchors, boxes as (x0, y0, x1, y1)
    in pixels: widths count both ends (x1 - x0 + 1), as MindSpore's kernels do. 'iou' divides by the
    union, 'iof' by the ground-truth area."""
    for name, b in (("anchor_boxes", anchor_boxes), ("gt_boxes", gt_boxes)):
        U.check_tensor("IOU", name, b)
        if b.ndim != 2 or b.shape[1] != 4:
            raise ValueError("For 'IOU', the dimension of '%s' should be [N, 4], but got: %s"
                             % (name, list(b.shape)))
    if mode not in ("iou", "iof"):
        raise KeyError("For 'IOU', the 'mode' should be 'iou' or 'iof', but got: %s" % (mode,))
    a = ops.expand_dims(anchor_boxes, 0)
    g = ops.expand_dims(gt_boxes.astype(anchor_boxes.dtype), 1)

    def col(t, i):
        return t[..., i]

    w = ops.relu(ops.minimum(col(a, 2), col(g, 2)) - ops.maximum(col(a, 0), col(g, 0)) + 1)
    h = ops.relu(ops.minimum(col(a, 3), col(g, 3)) - ops.maximum(col(a, 1), col(g, 1)) + 1)
    overlap = w * h
    area_a = (col(a, 2) - col(a, 0) + 1) * (col(a, 3) - col(a, 1) + 1)
    area_g = (col(g, 2) - col(g, 0) + 1) * (col(g, 3) - col(g, 1) + 1)
    denom = area_a + area_g - overlap if mode == "iou" else area_g
    return overlap / (denom + 1e-10)


def _grid_axis(n, align_corners):
    """Normalized pixel positions in [-1, 1]: the centers of the end pixels with align_corners,
    else the centers of n equal cells."""
    if n == 1:
        return np.zeros(1)
    axis = np.linspace(-1.0, 1.0, n)
    return axis if align_corners else axis * (n - 1) / n


@export(_F)
def affine_grid(theta, size, align_corners=False):
    """The sampling grid of a batch of affine maps: (N, H, W, 2) for theta (N, 2, 3) and size
    (N, C, H, W), (N, D, H, W, 3) for theta (N, 3, 4) and size (N, C, D, H, W); each output point is
    theta @ (x, y[, z], 1) of its normalized position. Differentiable in theta."""
    op = "AffineGrid"
    U.check_tensor(op, "theta", theta)
    if not isinstance(size, (tuple, list)):
        raise TypeError("For '%s', the 'size' must be a tuple, but got %s." % (op, type(size).__name__))
    U.check_bool(op, "align_corners", align_corners)
    size = tuple(size)
    spatial = len(size) - 2
    if spatial not in (2, 3) or tuple(theta.shape[1:]) != (spatial, spatial + 1):
        raise ValueError("For '%s', theta must be (N, 2, 3) with a 4-element size or (N, 3, 4) with a 5-element "
                         "size, but got theta %s and size %s." % (op, tuple(theta.shape), size))
    if size[0] != theta.shape[0]:
        raise ValueError("For '%s', size[0] (%d) must equal theta.shape[0] (%d)." % (op, size[0], theta.shape[0]))
    dims = size[2:]  # (H, W) or (D, H, W)
    axes = [_grid_axis(n, align_corners) for n in dims]
    mesh = np.meshgrid(*axes, indexing="ij")
    # columns x (width), y (height)[, z (depth)], 1
    cols = [m.reshape(-1) for m in reversed(mesh)] + [np.ones(mesh[0].size)]
    base = U.const(np.stack(cols, -1), theta.dtype)  # (P, spatial + 1)
    grid = ops.matmul(base, ops.transpose(theta, (0, 2, 1)))  # (N, P, spatial)
    return ops.reshape(grid, (theta.shape[0],) + tuple(dims) + (spatial,))


# ---------------------------------------------------------------- transposed convolution
def _conv(x, w, dilation, groups):
    n = x.ndim - 2
    if n == 2:
        return ops.conv2d(x, w, None, 1, "valid", 0, dilation, groups)
    import mindspore.ops._functional_pool as P
    return P._conv("conv_transpose", x, w, None, 1, "valid", 0, dilation, groups, n)


_cpp_backprop_input = getattr(ops, "_conv2d_backprop_input", None)


def _backprop_input_2d(dout, weight, stride, dilation, groups, pads, input_spatial):
    """conv_transpose_nd in 2-D by the core's Conv2DBackpropInput op: one GEMM and col2im per image,
    where the convolution over the zero-stuffed, padded dout below does stride^2 times the work
    (Conv2dTranspose 32x16x16x16, stride 2: 5x PyTorch's time). None when x's size does not give
    dout's through conv2d (the op requires it), e.g. a negative padding."""
    if _cpp_backprop_input is None:
        return None
    for i in range(2):
        k_eff = dilation[i] * (weight.shape[2 + i] - 1) + 1
        padded = input_spatial[i] + pads[i][0] + pads[i][1]
        if min(pads[i]) < 0 or padded < k_eff or (padded - k_eff) // stride[i] + 1 != dout.shape[2 + i]:
            return None
    size = (dout.shape[0], weight.shape[1] * groups) + tuple(input_spatial)
    return _cpp_backprop_input(dout, weight, size, tuple(stride), pads[0] + pads[1], tuple(dilation), groups)


def conv_transpose_nd(dout, weight, stride, dilation, groups, pads, input_spatial):
    """The gradient of conv(x, weight) with respect to x, for the forward's stride, dilation,
    groups and (before, after) paddings, given dout; input_spatial is x's spatial shape."""
    n = dout.ndim - 2
    if n == 2:
        direct = _backprop_input_2d(dout, weight, stride, dilation, groups,
                                    [tuple(p) for p in pads], input_spatial)
        if direct is not None:
            return direct
    k = tuple(weight.shape[2:])
    # insert stride-1 zeros between dout's elements
    x = dout
    for i in range(n):
        s = stride[i]
        if s > 1:
            axis = 2 + i
            length = x.shape[axis]
            x = ops.expand_dims(x, axis + 1)
            shape = list(x.shape)
            shape[axis + 1] = s - 1
            x = ops.concat((x, ops.zeros(tuple(shape), x.dtype)), axis + 1)
            merged = list(x.shape)
            merged[axis:axis + 2] = [length * s]
            x = ops.reshape(x, tuple(merged))
            x = ops.narrow(x, axis, 0, (length - 1) * s + 1)
    # full padding, then the flipped, transposed kernel
    flat = []
    for i in reversed(range(n)):
        p = (k[i] - 1) * dilation[i]
        flat += [p, p]
    x = ops.pad(x, tuple(flat))
    o, cg = weight.shape[0], weight.shape[1]
    w = ops.reshape(weight, (groups, o // groups, cg) + k)
    w = ops.transpose(w, (0, 2, 1) + tuple(range(3, 3 + n)))
    w = ops.reshape(w, (groups * cg, o // groups) + k)
    w = ops.flip(w, tuple(range(2, 2 + n)))
    full = _conv(x, w, dilation, groups)
    # crop the forward's padding; positions the forward never read get zeros
    for i in range(n):
        axis = 2 + i
        before = pads[i][0]
        want = input_spatial[i]
        have = full.shape[axis] - before
        if have >= want:
            full = ops.narrow(full, axis, before, want)
        else:
            full = ops.narrow(full, axis, before, have) if have > 0 else full
            shape = list(full.shape)
            shape[axis] = want - full.shape[axis]
            full = ops.concat((full, ops.zeros(tuple(shape), full.dtype)), axis)
    return full


def _ntuple(value, n):
    return (int(value),) * n if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)


@export(_F)
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """PyTorch-style transposed convolution: weight (C_in, C_out / groups, kh, kw)."""
    return _conv_transpose("conv_transpose2d", input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)


@export(_F)
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose("conv_transpose1d", input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


@export(_F)
def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0):
    """MindSpore's Conv3DTranspose as a function: weight (C_in, C_out / group, kd, kh, kw); padding
    one int or (head, tail, top, bottom, left, right); the output depth is (D - 1) * stride - head -
    tail + dilation * (kd - 1) + 1 + output_padding ('valid' pads nothing, 'same' gives D * stride)."""
    op = "Conv3DTranspose"
    U.check_tensor(op, "inputs", inputs)
    U.check_tensor(op, "weight", weight)
    if inputs.ndim != 5 or weight.ndim != 5:
        raise ValueError("For '%s', the rank of 'inputs' and 'weight' must be 5, but got %d and %d."
                         % (op, inputs.ndim, weight.ndim))
    if inputs.shape[1] != weight.shape[0]:
        raise ValueError("For '%s', inputs.shape[1] (%d) must equal weight.shape[0] (%d)."
                         % (op, inputs.shape[1], weight.shape[0]))
    mode = U.check_str(op, "pad_mode", str(pad_mode).lower(), ("valid", "same", "pad"))
    stride, dilation, output_padding = _ntuple(stride, 3), _ntuple(dilation, 3), _ntuple(output_padding, 3)
    pad6 = _ntuple(padding, 6) if not isinstance(padding, (int, np.integer)) else (int(padding),) * 6
    if mode != "pad" and any(pad6):
        raise ValueError("For '%s', 'padding' must be 0 when 'pad_mode' is '%s', but got %s." % (op, mode, padding))
    k = tuple(weight.shape[2:])
    din = tuple(inputs.shape[2:])
    if mode == "same":
        spatial, pads = [], []
        for i in range(3):
            size = din[i] * stride[i]
            total = max((din[i] - 1) * stride[i] + (k[i] - 1) * dilation[i] + 1 - size, 0)
            spatial.append(size + output_padding[i])
            pads.append((total // 2, total - total // 2))
    else:
        pads = [(pad6[2 * i], pad6[2 * i + 1]) for i in range(3)]
        spatial = [(din[i] - 1) * stride[i] - pads[i][0] - pads[i][1] + dilation[i] * (k[i] - 1) + 1
                   + output_padding[i] for i in range(3)]
    return conv_transpose_nd(inputs, weight, stride, dilation, group, pads, tuple(spatial))


def _conv_transpose(op, input, weight, bias, stride, padding, output_padding, groups, dilation, n):
    U.check_tensor(op, "input", input)
    U.check_tensor(op, "weight", weight)
    stride, dilation = _ntuple(stride, n), _ntuple(dilation, n)
    padding, output_padding = _ntuple(padding, n), _ntuple(output_padding, n)
    k = tuple(weight.shape[2:])
    spatial = tuple((input.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k[i] - 1) + 1
                    + output_padding[i] for i in range(n))
    out = conv_transpose_nd(input, weight, stride, dilation, groups, [(p, p) for p in padding], spatial)
    if bias is not None:
        out = out + ops.reshape(bias, (1, -1) + (1,) * n)
    return out


# ---------------------------------------------------------------- utilities
@export(_F)
def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scales every tensor of x by clip_norm / max(global_norm, clip_norm)."""
    if not isinstance(x, (tuple, list)):
        raise TypeError("For 'clip_by_global_norm', the 'x' must be a tuple or list of Tensors, but got %s."
                        % type(x).__name__)
    if use_norm is None:
        total = None
        for t in x:
            sq = ops.sum(t * t)
            total = sq if total is None else total + sq
        use_norm = ops.sqrt(total)
    scale = clip_norm / ops.maximum(use_norm, U.as_tensor(float(clip_norm), like=use_norm))
    return tuple(t * scale.astype(t.dtype) for t in x)


@export(_F)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    U.check_tensor("nan_to_num", "input", input)
    if input.dtype not in U._FLOATS:
        return input
    big = float(np.finfo(U.nptype(input.dtype)).max)
    out = ops.select(ops.isnan(input), ops.full_like(input, nan), input)
    out = ops.select(ops.isposinf(out), ops.full_like(input, big if posinf is None else posinf), out)
    return ops.select(ops.isneginf(out), ops.full_like(input, -big if neginf is None else neginf), out)


@export(_F)
def sinc(input):
    x = U.to_float(input)
    pix = x * np.pi
    safe = ops.select(ops.equal(x, 0), ops.ones_like(x), pix)
    return ops.select(ops.equal(x, 0), ops.ones_like(x), ops.sin(safe) / safe)


@export(_F)
def intopk(x1, x2, k):
    """Whether each target class x2[i] is among the k largest of x1[i]."""
    a = U.numpy_of(x1)
    t = U.numpy_of(x2).astype(np.int64)
    target = a[np.arange(a.shape[0]), t]
    larger = (a > target[:, None]).sum(1)
    return U.const(larger < k, mstype.bool_)
