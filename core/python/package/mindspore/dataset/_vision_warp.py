"""Resampling an <H, W> or <H, W, C> image through a projective map, the one engine behind Rotate,
Affine, Perspective and the shears and translations of the augmentation policies. The map is
given inverse (output pixel -> source pixel, OpenCV's pixel-centre coordinates), so every output
pixel is read once; pixels that fall outside the source take fill_value."""
import numbers

import numpy as np

from mindspore.dataset._transforms_py import Inter, _as_type_of


def check_interpolation(who, interpolation, name="resample"):
    if not isinstance(interpolation, Inter):
        raise TypeError("Argument %s with value %s is not of type [<enum 'Inter'>], but got %s."
                        % (name, interpolation, type(interpolation)))
    if interpolation not in (Inter.NEAREST, Inter.LINEAR, Inter.CUBIC, Inter.AREA):
        raise ValueError("%s: Inter.%s is not supported by gradstep; use Inter.NEAREST, Inter.BILINEAR, "
                         "Inter.BICUBIC or Inter.AREA." % (who, interpolation.name))
    return interpolation


def check_fill(fill_value):
    """fill_value: an int in [0, 255] or three of them (MindSpore's check)."""
    values = fill_value if isinstance(fill_value, (tuple, list)) else (fill_value,)
    if len(values) not in (1, 3) or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                            for v in values):
        raise TypeError("Argument fill_value with value %s is not of type [<class 'int'>, <class 'tuple'>]."
                        % (fill_value,))
    if any(not 0 <= v <= 255 for v in values):
        raise ValueError("Input fill_value is not within the required interval of [0, 255].")
    return tuple(values) if isinstance(fill_value, (tuple, list)) else fill_value


def _cubic_weights(t):
    """Keys' cubic convolution weights (a = -0.75, OpenCV's INTER_CUBIC) for the 4 taps around t."""
    a = -0.75
    d = np.stack([1 + t, t, 1 - t, 2 - t])
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, far)


def warp(img, inverse, out_h, out_w, interpolation, fill_value=0):
    """img resampled on an out_h x out_w grid: output pixel (x, y) reads the source at
    inverse @ (x, y, 1) (divided by its third coordinate)."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    m = np.asarray(inverse, np.float64)
    den = m[2, 0] * xs + m[2, 1] * ys + m[2, 2]
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)
    sx = (m[0, 0] * xs + m[0, 1] * ys + m[0, 2]) / den
    sy = (m[1, 0] * xs + m[1, 1] * ys + m[1, 2]) / den
    src = img.astype(np.float64)
    if src.ndim == 2:
        src = src[:, :, None]
    channels = src.shape[2]
    # A border of fill_value two pixels wide holds every tap that falls outside (bicubic reaches
    # two pixels out): clipping the indices into the padded image then reads fill for them
    # without a mask per tap.
    padded = np.empty((h + 4, w + 4, channels))
    padded[...] = np.broadcast_to(np.asarray(fill_value, np.float64), (channels,))
    padded[2:h + 2, 2:w + 2] = src
    flat = padded.reshape(-1, channels)

    def taps(iy, ix):
        index = np.clip(iy + 2, 0, h + 3) * (w + 4) + np.clip(ix + 2, 0, w + 3)
        return np.take(flat, index, axis=0)

    if interpolation == Inter.NEAREST:
        out = taps(np.floor(sy + 0.5).astype(np.int64), np.floor(sx + 0.5).astype(np.int64))
    elif interpolation == Inter.CUBIC:
        x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
        wx, wy = _cubic_weights(sx - x0), _cubic_weights(sy - y0)
        out = 0.0
        for i in range(4):
            for j in range(4):
                out = out + (wy[i] * wx[j])[..., None] * taps(y0 + i - 1, x0 + j - 1)
    else:
        # Bilinear (and AREA, which OpenCV's warps also sample bilinearly).
        x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
        fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]
        out = ((taps(y0, x0) * (1 - fx) + taps(y0, x0 + 1) * fx) * (1 - fy)
               + (taps(y0 + 1, x0) * (1 - fx) + taps(y0 + 1, x0 + 1) * fx) * fy)
    if img.ndim == 2:
        out = out[:, :, 0]
    return _as_type_of(out, img)


def affine_matrix(center, angle, translate, scale, shear):
    """The forward 3x3 map of an affine transform about center: rotation by angle degrees
    counter-clockwise (as seen, y pointing down), scale, shear (x, y) in degrees, then translate
    (dx, dy) in pixels."""
    cx, cy = center
    a = np.deg2rad(angle)
    sx, sy = np.deg2rad(shear[0]), np.deg2rad(shear[1])
    rotate = np.array([[np.cos(a), np.sin(a), 0], [-np.sin(a), np.cos(a), 0], [0, 0, 1]])
    shear_m = np.array([[1, -np.tan(sx), 0], [-np.tan(sy), 1, 0], [0, 0, 1]])
    scale_m = np.diag([scale, scale, 1.0])
    to_origin = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]])
    back = np.array([[1, 0, cx + translate[0]], [0, 1, cy + translate[1]], [0, 0, 1]])
    return back @ rotate @ shear_m @ scale_m @ to_origin


def homography(source_points, target_points):
    """The 3x3 projective map taking each of the four source points (x, y) to its target."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(source_points, target_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    try:
        p = np.linalg.solve(np.asarray(rows, np.float64), np.asarray(rhs, np.float64))
    except np.linalg.LinAlgError:
        raise ValueError("Perspective: the points do not define a perspective transform (three of them "
                         "are on one line).") from None
    return np.append(p, 1.0).reshape(3, 3)
