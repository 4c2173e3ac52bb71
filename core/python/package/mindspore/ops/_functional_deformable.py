"""ops.deformable_conv2d (deformable convolution v2, modulated): every kernel tap of every output
position reads the input at its regular place plus a learned (dy, dx) offset, by bilinear
interpolation (zero outside the image), times a learned mask; the sampled values are laid out as
(N, C, H_out * kh, W_out * kw) and convolved with the weight at stride (kh, kw), as MindSpore's
DeformableOffsets + Conv2D do. The corner positions come from NumPy; the bilinear weights and the
mask are ops on `offsets`, so gradients reach x, weight and offsets."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._functional_util import export

_F = "mindspore.ops.functional"


def _four(op, name, value, nc_one):
    if not isinstance(value, (tuple, list)) or len(value) != 4 or not all(isinstance(v, int) for v in value):
        raise TypeError("For '%s', '%s' must be a tuple of 4 ints, but got %s." % (op, name, value))
    if nc_one and (value[0] != 1 or value[1] != 1):
        raise ValueError("For '%s', the N and C dimensions of '%s' must be 1, but got %s." % (op, name, value))
    return tuple(value)


@export(_F)
def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1),
                      groups=1, deformable_groups=1, modulated=True):
    op = "DeformableConv2d"
    for name, t in (("x", x), ("weight", weight), ("offsets", offsets)):
        U.check_tensor(op, name, t)
        if t.ndim != 4:
            raise ValueError("For '%s', '%s' must be 4-D, but got %d-D." % (op, name, t.ndim))
    if not isinstance(modulated, bool):
        raise TypeError("For '%s', 'modulated' must be a bool, but got %s." % (op, type(modulated).__name__))
    if not modulated:
        raise ValueError("For '%s', only the modulated version (modulated=True) is defined." % op)
    if not isinstance(kernel_size, (tuple, list)) or len(kernel_size) != 2:
        raise TypeError("For '%s', 'kernel_size' must be a tuple of 2 ints, but got %s." % (op, kernel_size))
    kh, kw = (int(k) for k in kernel_size)
    _, _, sh, sw = _four(op, "strides", strides, True)
    pt, pb, pl, pr = _four(op, "padding", padding, False)
    _, _, dh, dw = _four(op, "dilations", dilations, True)
    n, c, h, w = x.shape
    dg = int(deformable_groups)
    if dg < 1 or c % dg:
        raise ValueError("For '%s', the input channels (%d) must be divisible by 'deformable_groups' (%d)."
                         % (op, c, dg))
    ho = (h + pt + pb - (kh - 1) * dh - 1) // sh + 1
    wo = (w + pl + pr - (kw - 1) * dw - 1) // sw + 1
    k = kh * kw
    if tuple(offsets.shape) != (n, 3 * dg * k, ho, wo):
        raise ValueError("For '%s', 'offsets' must have shape %s, but got %s."
                         % (op, (n, 3 * dg * k, ho, wo), tuple(offsets.shape)))
    # (N, dg, kh, kw, Ho, Wo) per component: channels are (offset_x, offset_y, mask), group-major
    comp = ops.reshape(offsets, (n, 3, dg, kh, kw, ho, wo))
    off_x, off_y, mask = comp[:, 0], comp[:, 1], comp[:, 2]
    base_y = (np.arange(ho) * sh - pt)[None, None, None, None, :, None] + (np.arange(kh) * dh)[None, None, :, None,
                                                                                               None, None]
    base_x = (np.arange(wo) * sw - pl)[None, None, None, None, None, :] + (np.arange(kw) * dw)[None, None, None, :,
                                                                                               None, None]
    pos_y = off_y + U.const(base_y.astype(np.float64), off_y.dtype)
    pos_x = off_x + U.const(base_x.astype(np.float64), off_x.dtype)
    y0 = np.floor(U.numpy_of(pos_y)).astype(np.int64)
    x0 = np.floor(U.numpy_of(pos_x)).astype(np.int64)
    ly = pos_y - U.const(y0.astype(np.float64), pos_y.dtype)
    lx = pos_x - U.const(x0.astype(np.float64), pos_x.dtype)
    # gather from x with one trailing zero for out-of-image taps; channel c belongs to group c // (C / dg)
    flat = ops.concat((ops.reshape(x, (-1,)), ops.zeros((1,), x.dtype)))
    zero_at = n * c * h * w
    chan = np.arange(c).reshape(1, c, 1, 1, 1, 1)
    group = chan // (c // dg)
    batch = np.arange(n).reshape(n, 1, 1, 1, 1, 1)
    sampled = None
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        yy = np.take(y0 + dy, group.reshape(-1), axis=1)  # (N, C, kh, kw, Ho, Wo)
        xx = np.take(x0 + dx, group.reshape(-1), axis=1)
        inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
        idx = ((batch * c + chan) * h + np.clip(yy, 0, h - 1)) * w + np.clip(xx, 0, w - 1)
        idx = np.where(inside, idx, zero_at)
        vals = ops.reshape(ops.gather(flat, U.const(idx.reshape(-1), mstype.int64), 0), idx.shape)
        wy = ly if dy else 1 - ly
        wx = lx if dx else 1 - lx
        weight_g = ops.gather(wy * wx, U.const(group.reshape(-1), mstype.int64), 1)  # (N, C, kh, kw, Ho, Wo)
        term = vals * weight_g.astype(x.dtype)
        sampled = term if sampled is None else sampled + term
    sampled = sampled * ops.gather(mask, U.const(group.reshape(-1), mstype.int64), 1).astype(x.dtype)
    # (N, C, kh, kw, Ho, Wo) -> (N, C, Ho, kh, Wo, kw) -> (N, C, Ho * kh, Wo * kw)
    grid = ops.reshape(ops.transpose(sampled, (0, 1, 4, 2, 5, 3)), (n, c, ho * kh, wo * kw))
    out = ops.conv2d(grid, weight, None, (kh, kw), "valid", 0, 1, groups)
    if bias is not None:
        out = out + ops.reshape(bias, (1, -1, 1, 1))
    return out
