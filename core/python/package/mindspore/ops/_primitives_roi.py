"""ROIAlign (Mask R-CNN's RoI Align) as a primitive class over mindspore.ops: each output bin
averages sample_num x sample_num bilinear samples of the feature map. The sample positions come
from the rois (constants); the values are gathers of the features, so the gradient reaches them."""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.ops import _functional_util as U
from mindspore.ops._primitives_nn import primitive
from mindspore.ops.primitive import Primitive, prim_attr_register


def _taps(coord, size):
    """Caffe2's bilinear rule per axis: (low index, high index, weight of high, inside mask)."""
    inside = (coord >= -1.0) & (coord <= size)
    c = np.maximum(coord, 0.0)
    low = np.floor(c).astype(np.int64)
    at_edge = low >= size - 1
    low = np.where(at_edge, size - 1, low)
    high = np.where(at_edge, size - 1, low + 1)
    c = np.where(at_edge, low.astype(np.float64), c)
    return low, high, c - low, inside


@primitive
class ROIAlign(Primitive):
    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        U.check_int("ROIAlign", "pooled_height", pooled_height, 1)
        U.check_int("ROIAlign", "pooled_width", pooled_width, 1)
        if not isinstance(spatial_scale, float):
            raise TypeError("For 'ROIAlign', the 'spatial_scale' must be a float, but got %s."
                            % type(spatial_scale).__name__)
        U.check_int("ROIAlign", "sample_num", sample_num)
        U.check_int("ROIAlign", "roi_end_mode", roi_end_mode)
        if roi_end_mode not in (0, 1):
            raise ValueError("For 'ROIAlign', the 'roi_end_mode' must be 0 or 1, but got %d." % roi_end_mode)

    def __call__(self, features, rois):
        U.check_tensor("ROIAlign", "features", features)
        U.check_tensor("ROIAlign", "rois", rois)
        if features.ndim != 4:
            raise ValueError("For 'ROIAlign', the 'features' must be (N, C, H, W), but got shape %s."
                             % (tuple(features.shape),))
        r = U.shape_deciding_values("ROIAlign", rois).astype(np.float64)
        if r.ndim != 2 or r.shape[1] != 5:
            raise ValueError("For 'ROIAlign', the 'rois' must be (rois_n, 5), but got shape %s." % (r.shape,))
        n, c, h, w = features.shape
        ph, pw = self.pooled_height, self.pooled_width
        scale = self.spatial_scale
        batch = r[:, 0].astype(np.int64)
        if np.any(batch < 0) or np.any(batch >= n):
            raise ValueError("For 'ROIAlign', the image index of 'rois' must be in [0, %d)." % n)
        x0, y0 = r[:, 1] * scale, r[:, 2] * scale
        x1, y1 = (r[:, 3] + self.roi_end_mode) * scale, (r[:, 4] + self.roi_end_mode) * scale
        rw, rh = x1 - x0, y1 - y0
        if self.roi_end_mode == 0:  # the legacy kernel makes every roi at least one pixel
            rw, rh = np.maximum(rw, 1.0), np.maximum(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        rows = []
        weights = []
        for k in range(len(r)):
            gh = self.sample_num if self.sample_num > 0 else max(int(np.ceil(rh[k] / ph)), 1)
            gw = self.sample_num if self.sample_num > 0 else max(int(np.ceil(rw[k] / pw)), 1)
            ys = y0[k] + np.arange(ph)[:, None] * bh[k] + (np.arange(gh)[None, :] + 0.5) * bh[k] / gh  # (ph, gh)
            xs = x0[k] + np.arange(pw)[:, None] * bw[k] + (np.arange(gw)[None, :] + 0.5) * bw[k] / gw  # (pw, gw)
            yl, yh_, ly, yin = _taps(ys, h)
            xl, xh_, lx, xin = _taps(xs, w)
            # (ph, gh, pw, gw) grids of the four taps
            y_lo, y_hi, wy = yl[:, :, None, None], yh_[:, :, None, None], ly[:, :, None, None]
            x_lo, x_hi, wx = xl[None, None], xh_[None, None], lx[None, None]
            ok = (yin[:, :, None, None] & xin[None, None]).astype(np.float64) / (gh * gw)
            base = batch[k] * h * w
            idx = [base + y_lo * w + x_lo, base + y_lo * w + x_hi, base + y_hi * w + x_lo, base + y_hi * w + x_hi]
            wts = [(1 - wy) * (1 - wx), (1 - wy) * wx, wy * (1 - wx), wy * wx]
            shape = (ph, gh, pw, gw)
            # one row of taps per output bin: (ph*pw, 4*gh*gw)
            rows.append(np.stack([np.broadcast_to(i, shape) for i in idx], -1)
                        .transpose(0, 2, 1, 3, 4).reshape(ph * pw, -1))
            weights.append((np.stack([np.broadcast_to(t * ok, shape) for t in wts], -1))
                           .transpose(0, 2, 1, 3, 4).reshape(ph * pw, -1))
        width = max(x.shape[1] for x in rows) if rows else 0
        idx = np.zeros((len(r) * ph * pw, width), np.int64)
        wt = np.zeros((len(r) * ph * pw, width))
        for k, (ri, wi) in enumerate(zip(rows, weights)):
            idx[k * ph * pw:(k + 1) * ph * pw, :ri.shape[1]] = ri
            wt[k * ph * pw:(k + 1) * ph * pw, :wi.shape[1]] = wi
        table = ops.reshape(ops.transpose(features, (0, 2, 3, 1)), (n * h * w, c))
        taps = ops.reshape(ops.gather(table, U.const(idx.reshape(-1), mstype.int64), 0), idx.shape + (c,))
        out = ops.sum(taps * U.const(wt[..., None], features.dtype), 1)  # (R*ph*pw, C)
        return ops.transpose(ops.reshape(out, (len(r), ph, pw, c)), (0, 3, 1, 2))
