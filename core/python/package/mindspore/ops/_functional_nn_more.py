"""Neural-network functions of mindspore.ops (MindSpore 2.2 names): ctc_loss, grid_sample,
lp_pool1d/2d, lrn, max_unpool1d/2d/3d, multi_margin_loss, multilabel_margin_loss, gumbel_softmax,
embedding, crop_and_resize and bounding_box_encode/decode.

All of them are composed of differentiable ops (the CTC forward recursion, bilinear taps as
gathers with data-dependent indices), so autodiff gives their gradients."""
import math as _math

import numpy as np

import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _t(op, x, name="input"):
    return U.check_tensor(op, name, x)


def _reduce(op, loss, reduction):
    U.check_reduction(op, reduction)
    if reduction == "mean":
        return ops.mean(loss)
    if reduction == "sum":
        return ops.sum(loss)
    return loss


# ---------------------------------------------------------------- CTC
# Log-space zero kept finite: -inf would make logaddexp's gradient 0/0 on impossible paths.
_NEG = -1e30


def _lse3(a, b, c):
    m = ops.stop_gradient(ops.maximum(ops.maximum(a, b), c))
    return ops.log(ops.exp(a - m) + ops.exp(b - m) + ops.exp(c - m)) + m


@export(_F)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """Connectionist Temporal Classification loss: the alpha (forward) recursion over the
    blank-extended targets in log space. log_probs (T, N, C), targets (N, S); returns
    (neg_log_likelihood, log_alpha of shape (N, T, 2S+1))."""
    op = "CTCLossV2"
    _t(op, log_probs, "log_probs")
    _t(op, targets, "targets")
    U.check_reduction(op, reduction)
    if log_probs.ndim != 3:
        raise ValueError("For '%s', the 'log_probs' must be (T, N, C), but got shape %s." % (op, tuple(log_probs.shape)))
    if log_probs.dtype not in U._FLOATS:
        raise TypeError("For '%s', the dtype of 'log_probs' must be float32 or float64, but got %s." % (op, log_probs.dtype))
    for name, value in (("targets", targets), ("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if isinstance(value, Tensor) and value.dtype not in U._INTS:
            raise TypeError("For '%s', the dtype of '%s' must be int32 or int64, but got %s." % (op, name, value.dtype))
    t_max, n, c = log_probs.shape
    tg = U.shape_deciding_values("ctc_loss", targets).astype(np.int64)
    if tg.ndim == 1:
        tg = tg.reshape(n, -1)
    if tg.ndim != 2 or tg.shape[0] != n:
        raise ValueError("For '%s', the 'targets' must be (N, S) with N = %d, but got shape %s."
                         % (op, n, tuple(targets.shape)))
    s = tg.shape[1]
    in_len = np.broadcast_to(U.shape_deciding_values("ctc_loss", input_lengths).astype(np.int64).reshape(-1), (n,))
    tg_len = np.broadcast_to(U.shape_deciding_values("ctc_loss", target_lengths).astype(np.int64).reshape(-1), (n,))
    if np.any(in_len > t_max) or np.any(in_len < 0):
        raise ValueError("For '%s', the 'input_lengths' must be in [0, %d], but got %s." % (op, t_max, in_len.tolist()))
    if np.any(tg_len > s) or np.any(tg_len < 0):
        raise ValueError("For '%s', the 'target_lengths' must be in [0, %d], but got %s." % (op, s, tg_len.tolist()))
    if not 0 <= blank < c:
        raise ValueError("For '%s', the 'blank' must be in [0, %d), but got %d." % (op, c, blank))
    width = 2 * s + 1
    ext = np.full((n, width), blank, np.int64)
    ext[:, 1::2] = np.where(tg >= 0, tg, blank)
    # the skip from l'[k-2] to l'[k] is allowed onto a label that differs from the previous label
    skip = np.zeros((n, width), bool)
    skip[:, 3::2] = ext[:, 3::2] != ext[:, 1:-2:2]
    valid = np.arange(width)[None, :] < (2 * tg_len[:, None] + 1)
    lp = log_probs
    dtype = lp.dtype
    index = U.const(np.broadcast_to(ext[None], (t_max, n, width)).copy(), mstype.int64)
    emit = ops.gather_elements(lp, 2, index)  # (T, N, 2S+1)
    neg = ops.full((n, width), _NEG, dtype=dtype)
    skip_t = U.const(skip, mstype.bool_)
    valid_t = U.const(valid, mstype.bool_)
    start = np.zeros((n, width), bool)
    start[:, 0] = True
    start[:, 1] = tg_len > 0
    alpha = ops.select(U.const(start, mstype.bool_), emit[0], neg) if t_max else neg
    alphas = [alpha]
    pad1 = ops.full((n, 1), _NEG, dtype=dtype)
    pad2 = ops.full((n, 2), _NEG, dtype=dtype)
    for t in range(1, t_max):
        prev1 = ops.concat((pad1, alpha[:, :-1]), 1)
        prev2 = ops.select(skip_t, ops.concat((pad2, alpha[:, :-2]), 1), neg)
        nxt = ops.select(valid_t, _lse3(alpha, prev1, prev2) + emit[t], neg)
        running = U.const((t < in_len)[:, None].repeat(width, 1), mstype.bool_)
        alpha = ops.select(running, nxt, alpha)  # frozen after the sample's input length
        alphas.append(alpha)
    last = np.stack([2 * tg_len, np.maximum(2 * tg_len - 1, 0)], 1)
    ends = ops.gather_elements(alpha, 1, U.const(last, mstype.int64))
    both = U.const(np.stack([np.ones(n, bool), tg_len > 0], 1), mstype.bool_)
    ends = ops.select(both, ends, ops.full((n, 2), _NEG, dtype=dtype))
    m = ops.stop_gradient(ops.amax(ends, 1))
    ll = ops.log(ops.sum(ops.exp(ends - ops.expand_dims(m, 1)), 1)) + m
    if np.any(in_len == 0):
        empty = U.const(in_len == 0, mstype.bool_)
        ll = ops.select(empty, ops.select(U.const(tg_len == 0, mstype.bool_), ops.zeros_like(ll),
                                          ops.full_like(ll, _NEG)), ll)
    loss = -ll
    impossible = loss > -_NEG / 10
    if zero_infinity:
        loss = ops.select(impossible, ops.zeros_like(loss), loss)
    else:
        loss = ops.select(impossible, ops.full_like(loss, float("inf")), loss)
    log_alpha = ops.stack(alphas, 1) if t_max else ops.zeros((n, 0, width), dtype)
    log_alpha = ops.select(log_alpha < _NEG / 10, ops.full_like(log_alpha, float("-inf")), log_alpha)
    if reduction == "mean":
        loss = ops.mean(loss / U.const(np.maximum(tg_len, 1), dtype))
    elif reduction == "sum":
        loss = ops.sum(loss)
    return loss, log_alpha


# ---------------------------------------------------------------- grid_sample
def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1.0) * (0.5 * (size - 1))
    return ((coord + 1.0) * size - 1.0) * 0.5


def _reflect(coord, lo, hi):
    """Reflects coord into [lo, hi] (by whole periods, as the grid_sample kernels do)."""
    span = hi - lo
    if span <= 0:
        return ops.zeros_like(coord) + lo
    x = ops.abs(coord - lo)
    flips = ops.stop_gradient(ops.floor(x / span))
    extra = x - flips * span
    even = ops.equal(ops.floor_mod(flips, 2.0), 0.0)
    return ops.select(even, extra + lo, span - extra + lo)


def _source(coord, size, padding_mode, align_corners):
    x = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        x = ops.clamp(x, 0.0, float(size - 1))
    elif padding_mode == "reflection":
        x = _reflect(x, 0.0, float(size - 1)) if align_corners else _reflect(x, -0.5, size - 0.5)
        x = ops.clamp(x, 0.0, float(size - 1))
    return x


@export(_F)
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """Samples input (N, C, H, W) at grid (N, Ho, Wo, 2) holding normalized (x, y) in [-1, 1]."""
    op = "GridSampler2D"
    _t(op, input)
    _t(op, grid, "grid")
    U.check_str(op, "mode", mode, ("bilinear", "nearest"))
    U.check_str(op, "padding_mode", padding_mode, ("zeros", "border", "reflection"))
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2 or grid.shape[0] != input.shape[0]:
        raise ValueError("For '%s', the 'input' must be (N, C, H, W) and 'grid' (N, H_out, W_out, 2), but got %s and %s."
                         % (op, tuple(input.shape), tuple(grid.shape)))
    n, c, h, w = input.shape
    ho, wo = grid.shape[1], grid.shape[2]
    g = grid.astype(input.dtype)
    x = _source(g[..., 0], w, padding_mode, align_corners)
    y = _source(g[..., 1], h, padding_mode, align_corners)
    flat = ops.reshape(input, (n, c, h * w))

    def tap(yi, xi):
        inside = (yi >= 0) & (yi <= h - 1) & (xi >= 0) & (xi <= w - 1)
        yc = ops.clamp(yi, 0.0, float(h - 1)).astype(mstype.int64)
        xc = ops.clamp(xi, 0.0, float(w - 1)).astype(mstype.int64)
        idx = ops.reshape(yc * w + xc, (n, 1, ho * wo))
        vals = ops.gather_elements(flat, 2, ops.broadcast_to(idx, (n, c, ho * wo)))
        vals = ops.reshape(vals, (n, c, ho, wo))
        return ops.select(ops.broadcast_to(ops.expand_dims(inside, 1), (n, c, ho, wo)), vals, ops.zeros_like(vals))

    if mode == "nearest":
        # round half to even, as the kernels' nearbyint
        return tap(ops.stop_gradient(ops.round(y)), ops.stop_gradient(ops.round(x)))
    x0 = ops.stop_gradient(ops.floor(x))
    y0 = ops.stop_gradient(ops.floor(y))
    wx1 = ops.expand_dims(x - x0, 1)
    wy1 = ops.expand_dims(y - y0, 1)
    wx0, wy0 = 1.0 - wx1, 1.0 - wy1
    return (tap(y0, x0) * wy0 * wx0 + tap(y0, x0 + 1.0) * wy0 * wx1
            + tap(y0 + 1.0, x0) * wy1 * wx0 + tap(y0 + 1.0, x0 + 1.0) * wy1 * wx1)


# ---------------------------------------------------------------- pooling and normalization
def _lp_pool(op, x, norm_type, kernel_size, stride, ceil_mode, dims):
    _t(op, x, "x")
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
        raise TypeError("For '%s', the 'norm_type' must be an int or float, but got %s." % (op, type(norm_type).__name__))
    kernel = (kernel_size,) * dims if isinstance(kernel_size, int) else tuple(kernel_size)
    stride = kernel if stride is None else ((stride,) * dims if isinstance(stride, int) else tuple(stride))
    p = float(norm_type)
    powered = ops.pow(x, p)
    if dims == 1:
        avg = ops.avg_pool1d(powered, kernel[0], stride[0], 0, ceil_mode)
    else:
        avg = ops.avg_pool2d(powered, kernel, stride, 0, ceil_mode)
    size = float(np.prod(kernel))
    total = ops.sign(avg) * ops.relu(ops.abs(avg)) * size
    return ops.pow(total, 1.0 / p)


@export(_F)
def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x^p)^(1/p) on (N, C, L)."""
    return _lp_pool("LPPool1d", x, norm_type, kernel_size, stride, ceil_mode, 1)


@export(_F)
def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool("LPPool2d", x, norm_type, kernel_size, stride, ceil_mode, 2)


@export(_F)
def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """x / (bias + alpha * sum of x^2 over channels c-r..c+r)^beta on (N, C, H, W)."""
    _t("LRN", x, "x")
    U.check_str("LRN", "norm_region", norm_region, ("ACROSS_CHANNELS",))
    r = U.check_int("LRN", "depth_radius", depth_radius, 0)
    if x.ndim != 4:
        raise ValueError("For 'LRN', the dimension of 'x' must be 4, but got %d." % x.ndim)
    c = x.shape[1]
    sq = ops.pad(x * x, (0, 0, 0, 0, r, r))
    acc = None
    for i in range(2 * r + 1):
        part = ops.narrow(sq, 1, i, c)
        acc = part if acc is None else acc + part
    return x / ops.pow(acc * alpha + bias, beta)


def _max_unpool(op, x, indices, kernel_size, stride, padding, output_size, dims):
    _t(op, x, "x")
    _t(op, indices, "indices")
    if tuple(x.shape) != tuple(indices.shape):
        raise ValueError("For '%s', 'x' and 'indices' must have the same shape, but got %s and %s."
                         % (op, tuple(x.shape), tuple(indices.shape)))
    if x.ndim not in (dims + 1, dims + 2):
        raise ValueError("For '%s', the dimension of 'x' must be %d or %d, but got %d." % (op, dims + 1, dims + 2, x.ndim))

    def tup(name, v):
        return (int(v),) * dims if isinstance(v, (int, np.integer)) else tuple(int(i) for i in v)

    kernel = tup("kernel_size", kernel_size)
    stride = kernel if stride is None else tup("stride", stride)
    pad = tup("padding", padding)
    spatial = tuple(x.shape[-dims:])
    size = tuple((spatial[i] - 1) * stride[i] - 2 * pad[i] + kernel[i] for i in range(dims))
    if output_size is not None and len(output_size):
        size = tuple(int(v) for v in tuple(output_size)[-dims:])
    lead = tuple(x.shape[:-dims])
    total = int(np.prod(size))
    idx = U.shape_deciding_values(op, indices).astype(np.int64)
    if np.any(idx < 0) or np.any(idx >= total):
        raise ValueError("For '%s', the 'indices' must be in [0, %d), but got values outside." % (op, total))
    rows = int(np.prod(lead, dtype=np.int64))
    vals = ops.reshape(x, (rows, -1))
    base = ops.zeros((rows, total), x.dtype)
    out = ops.tensor_scatter_elements(base, U.const(idx.reshape(rows, -1), mstype.int64), vals, 1)
    return ops.reshape(out, lead + size)


@export(_F)
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool("MaxUnpool1D", x, indices, kernel_size, stride, padding, output_size, 1)


@export(_F)
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool("MaxUnpool2D", x, indices, kernel_size, stride, padding, output_size, 2)


@export(_F)
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool("MaxUnpool3D", x, indices, kernel_size, stride, padding, output_size, 3)


# ---------------------------------------------------------------- margin losses
@export(_F)
def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """mean over classes i != y of max(0, margin - x[y] + x[i])^p (times weight[y])."""
    op = "MultiMarginLoss"
    _t(op, input)
    _t(op, target, "target")
    if p not in (1, 2):
        raise ValueError("For '%s', the 'p' must be 1 or 2, but got %s." % (op, p))
    x = input if input.ndim == 2 else ops.reshape(input, (1, -1))
    n, c = x.shape
    tg = U.shape_deciding_values("multi_margin_loss", target).astype(np.int64).reshape(-1)
    if tg.shape[0] != n or np.any(tg < 0) or np.any(tg >= c):
        raise ValueError("For '%s', the 'target' must hold %d class indices in [0, %d), but got %s." % (op, n, c, tg.tolist()))
    tidx = U.const(tg.reshape(n, 1), mstype.int64)
    xy = ops.gather_elements(x, 1, tidx)
    h = ops.relu(float(margin) - xy + x)
    if p == 2:
        h = h * h
    if weight is not None:
        h = h * ops.reshape(ops.gather(weight.astype(x.dtype), U.const(tg, mstype.int64), 0), (n, 1))
    other = U.const(np.arange(c)[None, :] != tg[:, None], x.dtype)
    loss = ops.sum(h * other, 1) / float(c)
    if input.ndim == 1:
        loss = ops.reshape(loss, ())
    return _reduce(op, loss, reduction)


@export(_F)
def multilabel_margin_loss(input, target, reduction="mean"):
    """sum over target classes j and non-target classes i of max(0, 1 - (x[j] - x[i])) / C;
    target lists class indices, ended by the first -1."""
    op = "MultilabelMarginLoss"
    _t(op, input)
    _t(op, target, "target")
    if tuple(input.shape) != tuple(target.shape):
        raise ValueError("For '%s', 'input' and 'target' must have the same shape, but got %s and %s."
                         % (op, tuple(input.shape), tuple(target.shape)))
    x = input if input.ndim == 2 else ops.reshape(input, (1, -1))
    n, c = x.shape
    tg = U.shape_deciding_values("multilabel_margin_loss", target).astype(np.int64).reshape(n, c)
    pair = np.zeros((n, c, c))  # pair[n, j, i] = 1 for target j, non-target i
    for b in range(n):
        labels = []
        for v in tg[b]:
            if v < 0:
                break
            labels.append(int(v))
        is_t = np.zeros(c, bool)
        is_t[labels] = True
        for j in labels:
            pair[b, j, ~is_t] += 1.0
    diff = ops.expand_dims(x, 1) - ops.expand_dims(x, 2)  # [n, j, i] = x[i] - x[j]
    loss = ops.sum(ops.sum(ops.relu(1.0 + diff) * U.const(pair, x.dtype), 2), 1) / float(c)
    if input.ndim == 1:
        loss = ops.reshape(loss, ())
    return _reduce(op, loss, reduction)


# ---------------------------------------------------------------- sampling and lookup
@export(_F)
def gumbel_softmax(logits, tau=1, hard=False, dim=-1):
    """softmax((logits + Gumbel noise) / tau); hard=True gives one-hot values with the soft
    gradient (straight-through)."""
    op = "gumbel_softmax"
    _t(op, logits, "logits")
    if logits.dtype not in U._ALL_FLOATS:
        raise TypeError("For '%s', the dtype of 'logits' must be a float type, but got %s." % (op, logits.dtype))
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or tau <= 0:
        raise ValueError("For '%s', the 'tau' must be a positive number, but got %s." % (op, tau))
    U.check_bool(op, "hard", hard)
    ax = U.norm_axis(op, dim, logits.ndim, "dim")
    from mindspore.ops._functional_random import _rng
    u = _rng("GumbelSoftmax").uniform(np.finfo(np.float32).tiny, 1.0, tuple(logits.shape))
    noise = U.const(-np.log(-np.log(u)), logits.dtype)
    y = ops.softmax((logits + noise) / float(tau), ax)
    if not hard:
        return y
    hot = ops.one_hot(ops.argmax(y, ax), logits.shape[ax], U.as_tensor(1.0, dtype=y.dtype),
                      U.as_tensor(0.0, dtype=y.dtype), ax)
    return hot - ops.stop_gradient(y) + y


@export(_F)
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Rows of weight at the indices in input. max_norm renormalizes the looked-up rows of weight
    in place; padding_idx's row gets no gradient; scale_grad_by_freq divides each row's gradient
    by its count in the batch."""
    op = "embedding"
    _t(op, input)
    _t(op, weight, "weight")
    ids = U.shape_deciding_values("embedding", input).astype(np.int64)
    v = weight.shape[0]
    if np.any(ids < -v) or np.any(ids >= v):
        raise ValueError("For '%s', the 'input' must be in [%d, %d), but got values outside." % (op, -v, v))
    ids = ids % v
    table = weight
    if max_norm is not None:
        rows = np.unique(ids)
        w = U.shape_deciding_values("embedding", weight).astype(np.float64)
        norms = np.linalg.norm(w[rows], ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        if np.any(scale != 1.0):
            factor = np.ones(v)
            factor[rows] = scale
            table = weight * U.const(factor.reshape(v, 1), weight.dtype)
            import mindspore
            if isinstance(weight, mindspore.Parameter):
                U.write_parameter(op, weight, ops.stop_gradient(table))
    keep = np.ones(v)
    if padding_idx is not None:
        pad = U.check_int(op, "padding_idx", padding_idx)
        if not -v <= pad < v:
            raise ValueError("For '%s', the 'padding_idx' must be in [%d, %d), but got %d." % (op, -v, v, pad))
        keep[pad % v] = 0.0
    if scale_grad_by_freq:
        counts = np.bincount(ids.reshape(-1), minlength=v)
        keep = keep / np.maximum(counts, 1)
    if np.any(keep != 1.0):
        # value of table, gradient scaled per row
        k = U.const(keep.reshape(v, 1), table.dtype)
        table = table * k + ops.stop_gradient(table * (1.0 - k))
    out = ops.gather(table, U.const(ids.reshape(-1), mstype.int64), 0)
    return ops.reshape(out, tuple(ids.shape) + tuple(weight.shape[1:]))


# ---------------------------------------------------------------- boxes
@export(_F)
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crops of NHWC image at normalized boxes (y1, x1, y2, x2), resized to crop_size:
    (num_boxes, crop_h, crop_w, depth). Gradient flows to image (box positions are constants)."""
    op = "CropAndResize"
    _t(op, image, "image")
    U.check_str(op, "method", method, ("bilinear", "nearest", "bilinear_v2"))
    if image.ndim != 4:
        raise ValueError("For '%s', the 'image' must be 4-D (N, H, W, C), but got %d-D." % (op, image.ndim))
    b = U.shape_deciding_values("crop_and_resize", boxes).astype(np.float64).reshape(-1, 4)
    bi = U.shape_deciding_values("crop_and_resize", box_indices).astype(np.int64).reshape(-1)
    ch, cw = (int(v) for v in crop_size)
    n, h, w, d = image.shape
    if len(bi) != len(b) or np.any(bi < 0) or np.any(bi >= n):
        raise ValueError("For '%s', the 'box_index' must hold %d values in [0, %d)." % (op, len(b), n))

    def coords(lo, hi, size, out):
        steps = np.arange(out)
        if out > 1:
            return lo[:, None] * (size - 1) + steps[None, :] * ((hi - lo) * (size - 1) / (out - 1))[:, None]
        return (0.5 * (lo + hi) * (size - 1))[:, None] + 0 * steps[None, :]

    ys = coords(b[:, 0], b[:, 2], h, ch)  # (B, ch)
    xs = coords(b[:, 1], b[:, 3], w, cw)  # (B, cw)
    yy = np.broadcast_to(ys[:, :, None], (len(b), ch, cw))
    xx = np.broadcast_to(xs[:, None, :], (len(b), ch, cw))
    inside = (yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= w - 1)
    flat = ops.reshape(image.astype(mstype.float32) if image.dtype not in U._FLOATS else image, (n * h * w, d))
    base = bi[:, None, None] * (h * w)

    def tap(yi, xi):
        yi = np.clip(yi, 0, h - 1).astype(np.int64)
        xi = np.clip(xi, 0, w - 1).astype(np.int64)
        rows = U.const((base + yi * w + xi).reshape(-1), mstype.int64)
        return ops.reshape(ops.gather(flat, rows, 0), (len(b), ch, cw, d))

    if method == "nearest":
        out = tap(np.round(yy), np.round(xx))
    else:
        y0, x0 = np.floor(yy), np.floor(xx)
        wy = U.const((yy - y0)[..., None], flat.dtype)
        wx = U.const((xx - x0)[..., None], flat.dtype)
        top = tap(y0, x0) * (1.0 - wx) + tap(y0, x0 + 1) * wx
        bottom = tap(y0 + 1, x0) * (1.0 - wx) + tap(y0 + 1, x0 + 1) * wx
        out = top * (1.0 - wy) + bottom * wy
    mask = U.const(np.broadcast_to(inside[..., None], out.shape).copy(), mstype.bool_)
    return ops.select(mask, out, ops.full_like(out, float(extrapolation_value))).astype(mstype.float32)


def _box_centers(boxes):
    x1, y1, x2, y2 = ops.unstack(boxes, -1)
    w = x2 - x1 + 1.0
    h = y2 - y1 + 1.0
    return x1 + 0.5 * (w - 1.0), y1 + 0.5 * (h - 1.0), w, h


@export(_F)
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """Deltas (dx, dy, dw, dh) from anchors to ground-truth boxes (x1, y1, x2, y2), normalized by
    means and stds."""
    op = "BoundingBoxEncode"
    _t(op, anchor_box, "anchor_box")
    _t(op, groundtruth_box, "groundtruth_box")
    if len(means) != 4 or len(stds) != 4:
        raise ValueError("For '%s', the 'means' and 'stds' must have 4 elements." % op)
    px, py, pw, ph = _box_centers(anchor_box)
    gx, gy, gw, gh = _box_centers(groundtruth_box)
    d = ops.stack(((gx - px) / pw, (gy - py) / ph, ops.log(gw / pw), ops.log(gh / ph)), -1)
    return (d - U.const(np.asarray(means, np.float64), d.dtype)) / U.const(np.asarray(stds, np.float64), d.dtype)


@export(_F)
def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes (x1, y1, x2, y2) from anchors and deltas, clipped to max_shape (height, width)."""
    op = "BoundingBoxDecode"
    _t(op, anchor_box, "anchor_box")
    _t(op, deltas, "deltas")
    if len(max_shape) != 2:
        raise ValueError("For '%s', the 'max_shape' must have 2 elements (height, width), but got %s." % (op, max_shape))
    std = U.const(np.asarray(stds, np.float64), deltas.dtype)
    d = deltas * std + U.const(np.asarray(means, np.float64), deltas.dtype)
    dx, dy, dw, dh = ops.unstack(d, -1)
    limit = abs(_math.log(wh_ratio_clip))
    dw = ops.clamp(dw, -limit, limit)
    dh = ops.clamp(dh, -limit, limit)
    px, py, pw, ph = _box_centers(anchor_box)
    gx, gy = px + pw * dx, py + ph * dy
    gw, gh = pw * ops.exp(dw), ph * ops.exp(dh)
    x1 = ops.clamp(gx - 0.5 * gw + 0.5, 0.0, float(max_shape[1] - 1))
    y1 = ops.clamp(gy - 0.5 * gh + 0.5, 0.0, float(max_shape[0] - 1))
    x2 = ops.clamp(gx + 0.5 * gw - 0.5, 0.0, float(max_shape[1] - 1))
    y2 = ops.clamp(gy + 0.5 * gh - 0.5, 0.0, float(max_shape[0] - 1))
    return ops.stack((x1, y1, x2, y2), -1)
