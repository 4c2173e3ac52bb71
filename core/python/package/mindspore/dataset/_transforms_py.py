"""Data transforms of MindSpore 2.2 the C++ module lacks, written over NumPy (data preparation is
not differentiated): vision Resize, Normalize, CenterCrop, RandomCrop, RandomHorizontalFlip,
RandomVerticalFlip, ToTensor, Pad, and transforms Compose, OneHot, Fill, Duplicate, RandomApply,
RandomChoice; the Inter and Border enums. Each is a callable that Dataset.map takes
and that can be called directly on NumPy arrays. Random ones draw from NumPy's global generator
(seeded by mindspore.dataset.config.set_seed through np.random.seed)."""
import enum
import numbers
import random

import numpy as np

import mindspore.dataset as _ds
import mindspore.dataset.transforms as _transforms
import mindspore.dataset.vision as _vision

__all__ = ["Inter", "Border", "Resize", "Normalize", "CenterCrop", "RandomCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "ToTensor", "Pad", "Compose", "OneHot",
           "Fill", "Duplicate", "RandomApply", "RandomChoice"]


class Inter(enum.IntEnum):
    """Interpolation modes of Resize."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, enum.Enum):
    """Padding modes of Pad and RandomCrop."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


def _type_name(value):
    return type(value).__name__


def _check_positive_int(who, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("Argument %s with value %s is not of type [<class 'int'>], but got %s."
                        % (name, value, type(value)))
    if value <= 0:
        raise ValueError("Input %s is not within the required interval of [1, 16777216]." % name)
    return int(value)


def _size_pair(who, size):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        return _check_positive_int(who, "size", size)
    if isinstance(size, (tuple, list)) and len(size) in (1, 2):
        values = tuple(_check_positive_int(who, "size", s) for s in size)
        return values if len(values) == 2 else values[0]
    raise TypeError("Argument size with value %s is not of type [<class 'int'>, <class 'list'>, "
                    "<class 'tuple'>], but got %s." % (size, type(size)))


def _image(who, img):
    img = np.asarray(img)
    if img.ndim not in (2, 3):
        raise RuntimeError("%s: the image must be <H, W> or <H, W, C>, but got shape %s."
                           % (who, img.shape))
    if img.shape[0] == 0 or img.shape[1] == 0:
        raise RuntimeError("%s: the image is empty, its shape is %s." % (who, img.shape))
    return img


def _as_type_of(result, img):
    if np.issubdtype(img.dtype, np.integer):
        info = np.iinfo(img.dtype)
        return np.clip(np.rint(result), info.min, info.max).astype(img.dtype)
    return result.astype(img.dtype)


def _is_pil(value):
    return type(value).__module__.startswith("PIL.") and hasattr(value, "getbands")


def _to_pil_if_image(array):
    if not isinstance(array, np.ndarray) or array.dtype != np.uint8:
        return array
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4)):
        from PIL import Image
        return Image.fromarray(np.ascontiguousarray(array))
    return array


class _PyTransform:
    """A transform over one column; subclasses define _apply(array)."""

    def __call__(self, *columns):
        if len(columns) != 1:
            raise RuntimeError("%s: takes one column, but got %d." % (type(self).__name__, len(columns)))
        # A PIL image in gives a PIL image out when the result is still an 8-bit picture, so
        # PIL-based pipelines (Decode(to_pil=True), ..., ToTensor) work as in MindSpore.
        if _is_pil(columns[0]):
            return _to_pil_if_image(self._apply(np.asarray(columns[0])))
        return self._apply(np.asarray(columns[0]))

    def _apply(self, array):
        raise NotImplementedError


def _axis_weights(n_in, n_out, mode):
    """The (n_out, n_in) matrix resampling one axis with half-pixel centres and the edge pixels
    repeated: OpenCV's INTER_CUBIC (Keys, a = -0.75), or INTER_AREA (the mean over each output
    pixel's footprint when shrinking; bilinear when enlarging, as OpenCV's AREA does)."""
    m = np.zeros((n_out, n_in))
    scale = n_in / n_out
    rows = np.arange(n_out)
    if mode == "area" and n_out <= n_in:
        for i in range(n_out):
            lo, hi = i * scale, (i + 1) * scale
            for k in range(int(np.floor(lo)), min(int(np.ceil(hi)), n_in)):
                m[i, k] = min(hi, k + 1) - max(lo, k)
        return m / m.sum(axis=1, keepdims=True)
    src = (rows + 0.5) * scale - 0.5
    x0 = np.floor(src).astype(np.int64)
    t = src - x0
    if mode == "cubic":
        a = -0.75
        for tap in range(-1, 3):
            d = np.abs(t - tap)
            w = np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a)
            np.add.at(m, (rows, np.clip(x0 + tap, 0, n_in - 1)), w)
        return m
    src = np.clip(src, 0, n_in - 1)
    x0 = np.floor(src).astype(np.int64)
    t = src - x0
    np.add.at(m, (rows, x0), 1 - t)
    np.add.at(m, (rows, np.minimum(x0 + 1, n_in - 1)), t)
    return m


def _pil_resize(img, th, tw, interpolation):
    """Inter.PILCUBIC and Inter.ANTIALIAS are PIL's bicubic and Lanczos filters: resized with PIL,
    one float channel at a time."""
    try:
        from PIL import Image
    except ImportError:
        raise RuntimeError("Resize: Inter.%s is PIL's filter and needs PIL (Debian package python3-pil), which is "
                           "not installed; use Inter.BICUBIC." % interpolation.name) from None
    method = Image.BICUBIC if interpolation == Inter.PILCUBIC else Image.LANCZOS
    planes = img[:, :, None] if img.ndim == 2 else img
    out = [np.asarray(Image.fromarray(np.ascontiguousarray(planes[:, :, c], np.float32), "F")
                      .resize((tw, th), method)) for c in range(planes.shape[2])]
    out = np.stack(out, -1).astype(np.float64)
    return _as_type_of(out[:, :, 0] if img.ndim == 2 else out, img)


class Resize(_PyTransform):
    """Resizes an <H, W> or <H, W, C> image to size: (height, width), or an int for the shorter
    side (the aspect ratio kept)."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = _size_pair("Resize", size)
        if not isinstance(interpolation, Inter):
            raise TypeError("Argument interpolation with value %s is not of type [<enum 'Inter'>], "
                            "but got %s." % (interpolation, type(interpolation)))
        self.interpolation = interpolation

    def _target(self, h, w):
        if isinstance(self.size, tuple):
            return self.size
        s = self.size
        if h <= w:
            return s, max(1, int(w * s / h))
        return max(1, int(h * s / w)), s

    def _apply(self, img):
        img = _image("Resize", img)
        h, w = img.shape[:2]
        th, tw = self._target(h, w)
        if self.interpolation == Inter.NEAREST:
            rows = np.minimum((np.arange(th) * h / th).astype(np.int64), h - 1)
            cols = np.minimum((np.arange(tw) * w / tw).astype(np.int64), w - 1)
            return img[rows][:, cols]
        if self.interpolation in (Inter.PILCUBIC, Inter.ANTIALIAS):
            return _pil_resize(img, th, tw, self.interpolation)
        if self.interpolation in (Inter.CUBIC, Inter.AREA):
            mode = "cubic" if self.interpolation == Inter.CUBIC else "area"
            f = np.tensordot(_axis_weights(h, th, mode), img.astype(np.float64), axes=(1, 0))
            f = np.moveaxis(np.tensordot(_axis_weights(w, tw, mode), f, axes=(1, 1)), 0, 1)
            return _as_type_of(f, img)
        # Bilinear with half-pixel centres (OpenCV's INTER_LINEAR).
        ys = np.clip((np.arange(th) + 0.5) * h / th - 0.5, 0, h - 1)
        xs = np.clip((np.arange(tw) + 0.5) * w / tw - 0.5, 0, w - 1)
        y0, x0 = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
        y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
        wy, wx = ys - y0, xs - x0
        f = img.astype(np.float64)
        if f.ndim == 3:
            wy, wx = wy[:, None, None], wx[None, :, None]
        else:
            wy, wx = wy[:, None], wx[None, :]
        top = f[y0][:, x0] * (1 - wx) + f[y0][:, x1] * wx
        bottom = f[y1][:, x0] * (1 - wx) + f[y1][:, x1] * wx
        return _as_type_of(top * (1 - wy) + bottom * wy, img)


class Normalize(_PyTransform):
    """(image - mean) / std per channel, as float32; is_hwc says where the channel axis is."""

    def __init__(self, mean, std, is_hwc=True):
        for name, values in (("mean", mean), ("std", std)):
            if not isinstance(values, (list, tuple)) or not all(
                    isinstance(v, numbers.Number) and not isinstance(v, bool) for v in values):
                raise TypeError("Argument %s with value %s is not of type [<class 'list'>, <class "
                                "'tuple'>] of numbers." % (name, values))
        if len(mean) != len(std):
            raise ValueError("Length of mean and std must be equal.")
        if any(s <= 0 for s in std):
            raise ValueError("Input std_value is not within the required interval of (0, 16777216].")
        if not isinstance(is_hwc, bool):
            raise TypeError("Argument is_hwc with value %s is not of type [<class 'bool'>]." % (is_hwc,))
        self.mean, self.std, self.is_hwc = list(mean), list(std), is_hwc

    def _apply(self, img):
        img = np.asarray(img).astype(np.float32)
        mean = np.asarray(self.mean, np.float32)
        std = np.asarray(self.std, np.float32)
        if img.ndim == 3:
            shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
            channels = img.shape[2] if self.is_hwc else img.shape[0]
            if len(self.mean) not in (1, channels):
                raise RuntimeError("Normalize: the number of channels %d does not match the length of "
                                   "mean and std %d." % (channels, len(self.mean)))
            mean, std = mean.reshape(shape), std.reshape(shape)
        return (img - mean) / std


class CenterCrop(_PyTransform):
    """The central (height, width) region (padded with zeros when the image is smaller)."""

    def __init__(self, size):
        self.size = _size_pair("CenterCrop", size)

    def _apply(self, img):
        img = _image("CenterCrop", img)
        th, tw = self.size if isinstance(self.size, tuple) else (self.size, self.size)
        h, w = img.shape[:2]
        if th > h or tw > w:
            pad_h, pad_w = max(th - h, 0), max(tw - w, 0)
            img = _pad(img, (pad_w // 2, pad_h // 2, pad_w - pad_w // 2, pad_h - pad_h // 2), 0,
                       Border.CONSTANT)
            h, w = img.shape[:2]
        top, left = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
        return img[top:top + th, left:left + tw]


def _padding4(padding):
    """(left, top, right, bottom) from an int, a pair (left/right, top/bottom) or four."""
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        return (int(padding),) * 4
    if isinstance(padding, (tuple, list)) and len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    if isinstance(padding, (tuple, list)) and len(padding) == 4:
        return tuple(padding)
    raise TypeError("padding should be an int or a sequence of 2 or 4 ints, but got %s." % (padding,))


def _pad(img, pads, fill, mode):
    left, top, right, bottom = pads
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if mode == Border.CONSTANT:
        if isinstance(fill, (tuple, list)) and img.ndim == 3:
            channels = [np.pad(img[..., c], widths[:2], mode="constant", constant_values=fill[c])
                        for c in range(img.shape[2])]
            return np.stack(channels, -1)
        return np.pad(img, widths, mode="constant", constant_values=fill)
    return np.pad(img, widths, mode=Border(mode).value)


class Pad(_PyTransform):
    """Pads the image's borders: padding int, (left/right, top/bottom) or (left, top, right,
    bottom)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _padding4(padding)
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        return _pad(_image("Pad", img), self.padding, self.fill_value, self.padding_mode)


class RandomCrop(_PyTransform):
    """A (height, width) crop at a random position, after optional padding."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = _size_pair("RandomCrop", size)
        self.padding = None if padding is None else _padding4(padding)
        self.pad_if_needed = pad_if_needed
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = _image("RandomCrop", img)
        th, tw = self.size if isinstance(self.size, tuple) else (self.size, self.size)
        if self.padding is not None:
            img = _pad(img, self.padding, self.fill_value, self.padding_mode)
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < th or w < tw):
            ph, pw = max(th - h, 0), max(tw - w, 0)
            img = _pad(img, (pw, ph, pw, ph), self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < th or w < tw:
            raise RuntimeError("RandomCrop: the crop size (%d, %d) is larger than the image (%d, %d)."
                               % (th, tw, h, w))
        top = np.random.randint(0, h - th + 1)
        left = np.random.randint(0, w - tw + 1)
        return img[top:top + th, left:left + tw]


def _check_prob(prob):
    if isinstance(prob, bool) or not isinstance(prob, numbers.Number):
        raise TypeError("Argument prob with value %s is not of type [<class 'float'>, <class 'int'>]."
                        % (prob,))
    if not 0.0 <= prob <= 1.0:
        raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
    return float(prob)


class RandomHorizontalFlip(_PyTransform):
    """Mirrors the image left to right with probability prob."""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _image("RandomHorizontalFlip", img)
        return img[:, ::-1].copy() if np.random.random() < self.prob else img


class RandomVerticalFlip(_PyTransform):
    """Mirrors the image top to bottom with probability prob."""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _image("RandomVerticalFlip", img)
        return img[::-1].copy() if np.random.random() < self.prob else img


class ToTensor(_PyTransform):
    """An <H, W, C> image (uint8 0..255 or float) to <C, H, W> output_type, uint8 scaled to
    [0, 1]."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type

    def _apply(self, img):
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[:, :, None]
        if img.ndim != 3:
            raise RuntimeError("ToTensor: the image must be <H, W> or <H, W, C>, but got shape %s."
                               % (img.shape,))
        scaled = img / 255.0 if img.dtype == np.uint8 else img
        return np.ascontiguousarray(scaled.transpose(2, 0, 1)).astype(self.output_type)


class OneHot(_PyTransform):
    """Class indices to one-hot rows of num_classes, optionally smoothed."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        self.num_classes = _check_positive_int("OneHot", "num_classes", num_classes)
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError("Input smoothing_rate is not within the required interval of [0.0, 1.0].")
        self.smoothing_rate = float(smoothing_rate)

    def _apply(self, label):
        label = np.asarray(label)
        if not np.issubdtype(label.dtype, np.integer):
            raise RuntimeError("OneHot: the input must be of integer type, but got %s." % label.dtype)
        if label.size and (label.min() < 0 or label.max() >= self.num_classes):
            raise RuntimeError("OneHot: the class index must be in [0, %d), but got %s."
                               % (self.num_classes, label))
        out = np.eye(self.num_classes, dtype=label.dtype)[label]
        if self.smoothing_rate:
            out = out.astype(np.float32) * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out


class Fill(_PyTransform):
    """An array of the input's shape and dtype filled with fill_value."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (str, float, bool, int, bytes)):
            raise TypeError("Argument fill_value with value %s is not of type [<class 'str'>, <class 'float'>, "
                            "<class 'bool'>, <class 'int'>, <class 'bytes'>], but got %s."
                            % (fill_value, type(fill_value)))
        self.fill_value = fill_value

    def _apply(self, array):
        # A string value fills only string columns, a number only numeric ones (MindSpore's FillOp).
        if (array.dtype.kind in "US") != isinstance(self.fill_value, (str, bytes)):
            raise RuntimeError("Fill: fill datatype does not match the input datatype.")
        value = self.fill_value
        if array.dtype.kind == "U" and isinstance(value, bytes):
            value = value.decode("utf8")
        elif array.dtype.kind == "S" and isinstance(value, str):
            value = value.encode("utf8")
        if array.dtype.kind in "US":
            return np.full(array.shape, value)
        return np.full_like(array, value)


class Duplicate:
    """Returns its column twice (map it with two output_columns)."""

    def __call__(self, column):
        column = np.asarray(column)
        return column, column.copy()


def _check_transforms(who, transforms):
    """MindSpore's check of the list Compose, RandomApply and RandomChoice take (its words)."""
    if not isinstance(transforms, list):
        raise TypeError("Argument transforms list with value %s is not of type [<class 'list'>], but got %s."
                        % (transforms, type(transforms)))
    if not transforms:
        raise ValueError("transforms list can not be empty.")
    for i, t in enumerate(transforms):
        if not callable(t):
            raise TypeError("transforms[%d] is neither a transforms op (TensorOperation) nor a callable pyfunc." % i)
        if isinstance(t, type):
            raise ValueError("op_list[%d] should be a dataset processing operation instance, but got: %s. It may be "
                             "missing parentheses for instantiation." % (i, t))
    return list(transforms)


class Compose:
    """Applies transforms one after another (a tuple result feeds the next as several columns)."""

    def __init__(self, transforms):
        self.transforms = _check_transforms("Compose", transforms)

    def __call__(self, *columns):
        out = columns
        for t in self.transforms:
            out = t(*out)
            if not isinstance(out, tuple):
                out = (out,)
        return out if len(out) > 1 else out[0]


class RandomApply:
    """Applies all of transforms with probability prob."""

    def __init__(self, transforms, prob=0.5):
        self.transforms = _check_transforms("RandomApply", transforms)
        if isinstance(prob, bool) or not isinstance(prob, (float, int)):
            raise TypeError("Argument prob with value %s is not of type [<class 'float'>, <class 'int'>], but got %s."
                            % (prob, type(prob)))
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0, 1].")
        self.prob = float(prob)

    def __call__(self, *columns):
        if np.random.random() >= self.prob:
            return columns if len(columns) > 1 else columns[0]
        return Compose(self.transforms)(*columns)


class RandomChoice:
    """Applies one of transforms, picked at random."""

    def __init__(self, transforms):
        self.transforms = _check_transforms("RandomChoice", transforms)

    def __call__(self, *columns):
        return self.transforms[np.random.randint(len(self.transforms))](*columns)


for _name in ("Inter", "Border", "Resize", "Normalize", "CenterCrop", "RandomCrop",
              "RandomHorizontalFlip", "RandomVerticalFlip", "ToTensor", "Pad"):
    if not hasattr(_vision, _name):
        setattr(_vision, _name, globals()[_name])
for _name in ("Compose", "OneHot", "Fill", "Duplicate", "RandomApply", "RandomChoice"):
    if not hasattr(_transforms, _name):
        setattr(_transforms, _name, globals()[_name])
_ds.Inter = getattr(_vision, "Inter")
_ds.Border = getattr(_vision, "Border")


_cpp_set_seed = _ds.config.set_seed


def set_seed(seed):
    """Seeds the pipelines' shuffles and, as MindSpore does, NumPy's and Python's generators
    (which the random transforms draw from)."""
    _cpp_set_seed(seed)
    np.random.seed(seed)
    random.seed(seed)


set_seed.__doc__ = _cpp_set_seed.__doc__ or set_seed.__doc__
_ds.config.set_seed = set_seed
