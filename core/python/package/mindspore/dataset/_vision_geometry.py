"""The geometric vision transforms of MindSpore 2.2 over NumPy <H, W> / <H, W, C> images: Crop,
HorizontalFlip, VerticalFlip, Rotate, RandomRotation, Affine, RandomAffine, Perspective,
RandomPerspective, RandomResizedCrop, SlicePatches (+ SliceMode). Random draws come from NumPy's
generator, which mindspore.dataset.config.set_seed seeds."""
import enum
import math
import numbers

import numpy as np

import mindspore.dataset.vision as _vision
from mindspore.dataset._transforms_py import (Inter, Resize, _PyTransform, _check_prob, _image, _pad,
                                              _size_pair, Border)
from mindspore.dataset._vision_warp import affine_matrix, check_fill, check_interpolation, homography, warp


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError("Argument %s with value %s is not of type [<class 'int'>, <class 'float'>], but got %s."
                        % (name, value, type(value)))
    return float(value)


def _range(name, value, symmetric=True, low=None):
    """A number d (the range (-d, d), d >= 0, when symmetric) or a (min, max) pair."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        if symmetric:
            if value < 0:
                raise ValueError("Input %s is not within the required interval of [0, 16777216]." % name)
            return (-float(value), float(value))
        return (float(value), float(value))
    if isinstance(value, (tuple, list)) and len(value) == 2:
        lo, hi = _number(name, value[0]), _number(name, value[1])
        if lo > hi:
            raise ValueError("%s should be in (min,max) format. Got (max,min)." % name)
        if low is not None and lo < low:
            raise ValueError("Input %s is not within the required interval of [%s, 16777216]." % (name, low))
        return (lo, hi)
    raise TypeError("Argument %s with value %s is not of type [<class 'int'>, <class 'float'>, "
                    "<class 'list'>, <class 'tuple'>], but got %s." % (name, value, type(value)))


def _hw(size):
    return size if isinstance(size, tuple) else (size, size)


class Crop(_PyTransform):
    """The size region whose top-left corner is coordinates (top, left)."""

    def __init__(self, coordinates, size):
        if not isinstance(coordinates, (tuple, list)) or len(coordinates) != 2 or not all(
                isinstance(c, numbers.Integral) and not isinstance(c, bool) for c in coordinates):
            raise TypeError("Argument coordinates with value %s is not of type [<class 'list'>, <class 'tuple'>] "
                            "of two ints." % (coordinates,))
        if min(coordinates) < 0:
            raise ValueError("Input coordinates is not within the required interval of [0, 2147483647].")
        self.coordinates = tuple(int(c) for c in coordinates)
        self.size = _size_pair("Crop", size)

    def _apply(self, img):
        img = _image("Crop", img)
        (top, left), (th, tw) = self.coordinates, _hw(self.size)
        h, w = img.shape[:2]
        if top + th > h or left + tw > w:
            raise RuntimeError("Crop: Crop height/width must be less than image height/width, but the region "
                               "(top %d, left %d, height %d, width %d) leaves the image of size (%d, %d)."
                               % (top, left, th, tw, h, w))
        return img[top:top + th, left:left + tw].copy()


class HorizontalFlip(_PyTransform):
    """Mirrors the image left to right."""

    def _apply(self, img):
        return _image("HorizontalFlip", img)[:, ::-1].copy()


class VerticalFlip(_PyTransform):
    """Mirrors the image top to bottom."""

    def _apply(self, img):
        return _image("VerticalFlip", img)[::-1].copy()


def _center(center, h, w):
    if center is None:
        return ((w - 1) / 2.0, (h - 1) / 2.0)
    return float(center[0]), float(center[1])


def _check_center(center):
    if center is not None and (not isinstance(center, (tuple, list)) or len(center) != 2):
        raise TypeError("Argument center with value %s is not of type [<class 'tuple'>] of two numbers."
                        % (center,))
    return None if center is None else (_number("center", center[0]), _number("center", center[1]))


def _rotate(img, degrees, resample, expand, center, fill_value):
    h, w = img.shape[:2]
    c = _center(center, h, w)
    forward = affine_matrix(c, degrees, (0, 0), 1.0, (0, 0))
    out_h, out_w = h, w
    if expand:
        corners = np.array([[-0.5, -0.5, 1], [w - 0.5, -0.5, 1], [-0.5, h - 0.5, 1], [w - 0.5, h - 0.5, 1]]).T
        moved = forward @ corners
        # Rounded to suppress float noise (cos 90 is 6e-17) before taking the bounding box.
        lo, hi = np.round(moved[:2].min(axis=1), 6), np.round(moved[:2].max(axis=1), 6)
        out_w, out_h = int(math.ceil(hi[0] - lo[0])), int(math.ceil(hi[1] - lo[1]))
        forward = np.array([[1, 0, -lo[0] - 0.5], [0, 1, -lo[1] - 0.5], [0, 0, 1]]) @ forward
    return warp(img, np.linalg.inv(forward), out_h, out_w, resample, fill_value)


class Rotate(_PyTransform):
    """Rotates the image by degrees counter-clockwise about center (default: the image centre);
    expand grows the output to hold the whole rotated image."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _number("degrees", degrees)
        self.resample = check_interpolation("Rotate", resample)
        if not isinstance(expand, bool):
            raise TypeError("Argument expand with value %s is not of type [<class 'bool'>]." % (expand,))
        self.expand, self.center = expand, _check_center(center)
        self.fill_value = check_fill(fill_value)

    def _apply(self, img):
        return _rotate(_image("Rotate", img), self.degrees, self.resample, self.expand, self.center,
                       self.fill_value)


class RandomRotation(_PyTransform):
    """Rotate by an angle drawn uniformly from degrees (d: (-d, d), or (min, max))."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _range("degrees", degrees)
        self.resample = check_interpolation("RandomRotation", resample)
        if not isinstance(expand, bool):
            raise TypeError("Argument expand with value %s is not of type [<class 'bool'>]." % (expand,))
        self.expand, self.center = expand, _check_center(center)
        self.fill_value = check_fill(fill_value)

    def _apply(self, img):
        angle = np.random.uniform(*self.degrees)
        return _rotate(_image("RandomRotation", img), angle, self.resample, self.expand, self.center,
                       self.fill_value)


def _shear_pair(shear):
    if isinstance(shear, (tuple, list)):
        return (float(shear[0]), float(shear[1]) if len(shear) > 1 else 0.0)
    return (float(shear), 0.0)


class Affine(_PyTransform):
    """Rotation (degrees, clockwise as MindSpore's and torchvision's affine, unlike Rotate),
    translation (pixels), scale and shear (degrees, x and y) about the image centre."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _number("degrees", degrees)
        if not isinstance(translate, (tuple, list)) or len(translate) != 2:
            raise TypeError("Argument translate with value %s is not of type [<class 'list'>, <class 'tuple'>] "
                            "of two numbers." % (translate,))
        self.translate = (_number("translate", translate[0]), _number("translate", translate[1]))
        self.scale = _number("scale", scale)
        if self.scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        self.shear = _shear_pair(shear)
        self.resample = check_interpolation("Affine", resample)
        self.fill_value = check_fill(fill_value)

    def _apply(self, img):
        img = _image("Affine", img)
        h, w = img.shape[:2]
        forward = affine_matrix(_center(None, h, w), -self.degrees, self.translate, self.scale, self.shear)
        return warp(img, np.linalg.inv(forward), h, w, self.resample, self.fill_value)


class RandomAffine(_PyTransform):
    """Affine with parameters drawn per image: degrees (d or (min, max)), translate (fractions of
    the width / height: (x_min, x_max[, y_min, y_max])), scale ((min, max)), shear (d,
    (x_min, x_max) or (x_min, x_max, y_min, y_max) in degrees)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _range("degrees", degrees)
        if translate is not None:
            if not isinstance(translate, (tuple, list)) or len(translate) not in (2, 4):
                raise TypeError("translate should be a list or tuple of length 2 or 4.")
            if any(not -1.0 <= t <= 1.0 for t in translate):
                raise ValueError("Input translate is not within the required interval of [-1.0, 1.0].")
            translate = tuple(float(t) for t in translate)
            if len(translate) == 2:
                translate = translate + (0.0, 0.0)
        self.translate = translate
        self.scale = None if scale is None else _range("scale", scale, symmetric=False, low=0)
        if self.scale is not None and self.scale[1] <= 0:
            raise ValueError("Input scale must be greater than 0.")
        if shear is None:
            self.shear = None
        elif isinstance(shear, numbers.Number):
            self.shear = _range("shear", shear) + (0.0, 0.0)
        elif isinstance(shear, (tuple, list)) and len(shear) in (2, 4):
            self.shear = tuple(float(s) for s in shear) + ((0.0, 0.0) if len(shear) == 2 else ())
        else:
            raise TypeError("shear should be a number or a list or tuple of length 2 or 4.")
        self.resample = check_interpolation("RandomAffine", resample)
        self.fill_value = check_fill(fill_value)

    def _apply(self, img):
        img = _image("RandomAffine", img)
        h, w = img.shape[:2]
        angle = np.random.uniform(*self.degrees)
        tx = ty = 0.0
        if self.translate is not None:
            tx = round(np.random.uniform(self.translate[0], self.translate[1]) * w)
            ty = round(np.random.uniform(self.translate[2], self.translate[3]) * h)
        scale = 1.0 if self.scale is None else np.random.uniform(*self.scale)
        shear = (0.0, 0.0)
        if self.shear is not None:
            shear = (np.random.uniform(self.shear[0], self.shear[1]), np.random.uniform(self.shear[2], self.shear[3]))
        forward = affine_matrix(_center(None, h, w), -angle, (tx, ty), scale, shear)
        return warp(img, np.linalg.inv(forward), h, w, self.resample, self.fill_value)


def _points(name, points):
    if not isinstance(points, (tuple, list)) or len(points) != 4 or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 for p in points):
        raise TypeError("Argument %s with value %s is not of type [<class 'list'>, <class 'tuple'>] of four "
                        "[x, y] points." % (name, points))
    return [(_number(name, p[0]), _number(name, p[1])) for p in points]


class Perspective(_PyTransform):
    """The projective map taking start_points (four [x, y] corners) to end_points."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        self.start_points = _points("start_points", start_points)
        self.end_points = _points("end_points", end_points)
        self.interpolation = check_interpolation("Perspective", interpolation, "interpolation")
        homography(self.start_points, self.end_points)  # the points' check, when they are given
        self._inverse = homography(self.end_points, self.start_points)

    def _apply(self, img):
        img = _image("Perspective", img)
        h, w = img.shape[:2]
        return warp(img, self._inverse, h, w, self.interpolation)


class RandomPerspective(_PyTransform):
    """With probability prob, a perspective map moving each corner inwards by up to
    distortion_scale of half the width / height (torchvision's draw)."""

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        self.distortion_scale = _number("distortion_scale", distortion_scale)
        if not 0.0 <= self.distortion_scale <= 1.0:
            raise ValueError("Input distortion_scale is not within the required interval of [0.0, 1.0].")
        self.prob = _check_prob(prob)
        self.interpolation = check_interpolation("RandomPerspective", interpolation, "interpolation")

    def _apply(self, img):
        img = _image("RandomPerspective", img)
        h, w = img.shape[:2]
        if np.random.random() >= self.prob or h < 2 or w < 2:
            return img
        dx, dy = int(self.distortion_scale * w / 2), int(self.distortion_scale * h / 2)
        r = np.random.randint
        start = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
        end = [(r(0, dx + 1), r(0, dy + 1)), (w - 1 - r(0, dx + 1), r(0, dy + 1)),
               (w - 1 - r(0, dx + 1), h - 1 - r(0, dy + 1)), (r(0, dx + 1), h - 1 - r(0, dy + 1))]
        return warp(img, homography(end, start), h, w, self.interpolation)


def crop_box(h, w, scale, ratio, max_attempts):
    """RandomResizedCrop's region (top, left, height, width): an area fraction from scale and an
    aspect ratio log-uniform in ratio, retried max_attempts times, else the centre crop clamped
    to ratio."""
    area = h * w
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(max_attempts):
        target = area * np.random.uniform(scale[0], scale[1])
        aspect = math.exp(np.random.uniform(*log_ratio))
        cw = int(round(math.sqrt(target * aspect)))
        ch = int(round(math.sqrt(target / aspect)))
        if 0 < cw <= w and 0 < ch <= h:
            return np.random.randint(0, h - ch + 1), np.random.randint(0, w - cw + 1), ch, cw
    in_ratio = w / h
    if in_ratio < min(ratio):
        cw, ch = w, int(round(w / min(ratio)))
    elif in_ratio > max(ratio):
        ch, cw = h, int(round(h * max(ratio)))
    else:
        cw, ch = w, h
    return (h - ch) // 2, (w - cw) // 2, ch, cw


def _check_scale_ratio(scale, ratio, max_attempts):
    scale = _range("scale", scale, symmetric=False, low=0)
    ratio = _range("ratio", ratio, symmetric=False, low=0)
    if ratio[0] <= 0:
        raise ValueError("Input ratio is not within the required interval of (0, 16777216].")
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, numbers.Integral) or max_attempts < 1:
        raise ValueError("Input max_attempts is not within the required interval of [1, 2147483647].")
    return scale, ratio, int(max_attempts)


class RandomResizedCrop(_PyTransform):
    """A random region (area fraction in scale, aspect ratio in ratio) resized to size."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self.size = _size_pair("RandomResizedCrop", size)
        self.scale, self.ratio, self.max_attempts = _check_scale_ratio(scale, ratio, max_attempts)
        self.interpolation = interpolation
        self._resize = Resize(_hw(self.size), interpolation)

    def _apply(self, img):
        img = _image("RandomResizedCrop", img)
        top, left, ch, cw = crop_box(img.shape[0], img.shape[1], self.scale, self.ratio, self.max_attempts)
        return self._resize._apply(img[top:top + ch, left:left + cw])


class ResizedCrop(_PyTransform):
    """The region (top, left, height, width) resized to size."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        for name, value, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError("Argument %s with value %s is not of type [<class 'int'>]." % (name, value))
            if value < low:
                raise ValueError("Input %s is not within the required interval of [%d, 2147483647]." % (name, low))
        self.box = (int(top), int(left), int(height), int(width))
        self.size = _size_pair("ResizedCrop", size)
        self._resize = Resize(_hw(self.size), interpolation)

    def _apply(self, img):
        img = _image("ResizedCrop", img)
        top, left, ch, cw = self.box
        if top + ch > img.shape[0] or left + cw > img.shape[1]:
            raise RuntimeError("ResizedCrop: the crop (top %d, left %d, height %d, width %d) leaves the image of "
                               "size (%d, %d)." % (top, left, ch, cw, img.shape[0], img.shape[1]))
        return self._resize._apply(img[top:top + ch, left:left + cw])


class RandomResize(_PyTransform):
    """Resize to size with an interpolation drawn per image from NEAREST, BILINEAR, BICUBIC and
    AREA."""

    _MODES = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = _size_pair("RandomResize", size)
        self._resizes = [Resize(self.size, mode) for mode in self._MODES]

    def _apply(self, img):
        return self._resizes[np.random.randint(len(self._resizes))]._apply(_image("RandomResize", img))


def _five(img, th, tw):
    h, w = img.shape[:2]
    if th > h or tw > w:
        raise RuntimeError("FiveCrop: the crop size (%d, %d) is larger than the image (%d, %d)." % (th, tw, h, w))
    top, left = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
    return (img[:th, :tw].copy(), img[:th, w - tw:].copy(), img[h - th:, :tw].copy(), img[h - th:, w - tw:].copy(),
            img[top:top + th, left:left + tw].copy())


class FiveCrop:
    """The four corner crops and the centre crop of size (top-left, top-right, bottom-left,
    bottom-right, centre)."""

    def __init__(self, size):
        self.size = _size_pair("FiveCrop", size)

    def __call__(self, img):
        return _five(_image("FiveCrop", np.asarray(img)), *_hw(self.size))


class TenCrop:
    """FiveCrop of the image and of its mirror image (left-right, or top-bottom with
    use_vertical_flip)."""

    def __init__(self, size, use_vertical_flip=False):
        self.size = _size_pair("TenCrop", size)
        if not isinstance(use_vertical_flip, bool):
            raise TypeError("Argument use_vertical_flip with value %s is not of type [<class 'bool'>]."
                            % (use_vertical_flip,))
        self.use_vertical_flip = use_vertical_flip

    def __call__(self, img):
        img = _image("TenCrop", np.asarray(img))
        flipped = img[::-1] if self.use_vertical_flip else img[:, ::-1]
        return _five(img, *_hw(self.size)) + _five(flipped, *_hw(self.size))


class PadToSize(_PyTransform):
    """Pads the image to size (height, width): offset (top, left) of it, else centred (the odd
    pixel at the bottom / right)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _size_pair("PadToSize", size)
        if offset is not None:
            offset = (offset, offset) if isinstance(offset, numbers.Integral) else tuple(offset)
            if len(offset) != 2 or min(offset) < 0:
                raise ValueError("Input offset must be a non-negative int or a pair of them.")
        self.offset, self.fill_value, self.padding_mode = offset, fill_value, Border(padding_mode)

    def _apply(self, img):
        img = _image("PadToSize", img)
        (th, tw), (h, w) = _hw(self.size), img.shape[:2]
        top, left = self.offset if self.offset is not None else ((th - h) // 2, (tw - w) // 2)
        if top < 0 or left < 0 or h + top > th or w + left > tw:
            raise ValueError("PadToSize: the target size (%d, %d) is smaller than the image (%d, %d) plus the "
                             "offset (%d, %d)." % (th, tw, h, w, top, left))
        return _pad(img, (left, top, tw - w - left, th - h - top), self.fill_value, self.padding_mode)


class SliceMode(enum.IntEnum):
    """How SlicePatches treats a size that the patch count does not divide."""
    PAD = 0
    DROP = 1


class SlicePatches:
    """Cuts the image into num_height x num_width patches (one output column each), padding the
    bottom / right with fill_value (SliceMode.PAD) or dropping the remainder (DROP)."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError("Argument %s with value %s is not of type [<class 'int'>]." % (name, value))
            if not 1 <= value <= 32768:
                raise ValueError("Input %s is not within the required interval of [1, 32768]." % name)
        if not isinstance(slice_mode, SliceMode):
            raise TypeError("Argument slice_mode with value %s is not of type [<enum 'SliceMode'>]." % (slice_mode,))
        self.num_height, self.num_width, self.slice_mode = num_height, num_width, slice_mode
        self.fill_value = check_fill(fill_value)

    def __call__(self, img):
        img = _image("SlicePatches", np.asarray(img))
        h, w = img.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // self.num_height), -(-w // self.num_width)
            img = _pad(img, (0, 0, pw * self.num_width - w, ph * self.num_height - h), self.fill_value,
                       Border.CONSTANT)
        else:
            ph, pw = h // self.num_height, w // self.num_width
            if ph == 0 or pw == 0:
                raise RuntimeError("SlicePatches: the image (%d, %d) is smaller than the number of patches "
                                   "(%d, %d)." % (h, w, self.num_height, self.num_width))
        patches = tuple(img[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw].copy()
                        for i in range(self.num_height) for j in range(self.num_width))
        return patches if len(patches) > 1 else patches[0]


for _name in ("Crop", "HorizontalFlip", "VerticalFlip", "Rotate", "RandomRotation", "Affine", "RandomAffine",
              "Perspective", "RandomPerspective", "RandomResizedCrop", "SliceMode", "SlicePatches", "ResizedCrop",
              "RandomResize", "FiveCrop", "TenCrop", "PadToSize"):
    setattr(_vision, _name, globals()[_name])
