"""The colour vision transforms of MindSpore 2.2 over NumPy <H, W, C> images (uint8 0..255 or
float): AdjustBrightness / Contrast / Saturation / Hue / Sharpness, RandomColorAdjust,
ConvertColor (+ ConvertMode), Grayscale, RandomGrayscale, Invert, Equalize, AutoContrast,
Posterize, Solarize and their Random variants. The arithmetic is PIL's (ImageEnhance,
ImageOps: grey by ITU-R 601-2, the same histogram rules), which MindSpore follows, so results on
uint8 images match PIL's. The functions here are shared with the augmentation policies."""
import enum
import numbers

import numpy as np

import mindspore.dataset.vision as _vision
from mindspore.dataset._transforms_py import _PyTransform, _as_type_of, _check_prob, _image

_GREY = np.array([0.299, 0.587, 0.114])


def _rgb(who, img):
    img = _image(who, img)
    if img.ndim != 3 or img.shape[2] != 3:
        raise RuntimeError("%s: the image must be <H, W, 3> (RGB), but got shape %s." % (who, img.shape))
    return img


def _uint8(who, img):
    if img.dtype != np.uint8:
        raise RuntimeError("%s: the image must be of type uint8, but got %s." % (who, img.dtype))
    return img


def _factor(name, value, low=0.0, high=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError("Argument %s with value %s is not of type [<class 'float'>, <class 'int'>], but got %s."
                        % (name, value, type(value)))
    if value < low or (high is not None and value > high):
        raise ValueError("Input %s is not within the required interval of [%s, %s]."
                         % (name, low, 16777216 if high is None else high))
    return float(value)


def grey(img):
    """Luma of an RGB image as float, <H, W>."""
    return img.astype(np.float64) @ _GREY


def blend(img, degenerate, factor):
    """PIL's ImageEnhance: degenerate + factor (img - degenerate), clipped to uint8's range for
    uint8 images."""
    out = degenerate + factor * (img.astype(np.float64) - degenerate)
    if img.dtype == np.uint8:
        out = np.clip(out, 0, 255)
    return _as_type_of(out, img)


def brightness(img, factor):
    return blend(img, 0.0, factor)


def contrast(img, factor):
    mean = grey(img).mean()
    if img.dtype == np.uint8:
        mean = int(mean + 0.5)
    return blend(img, mean, factor)


def saturation(img, factor):
    g = grey(img)
    if img.dtype == np.uint8:
        g = np.rint(g)
    return blend(img, g[:, :, None], factor)


def sharpness(img, factor):
    """Blend with PIL's SMOOTH filter (3x3, centre 5, others 1, over 13); the border keeps its
    pixels as in PIL."""
    f = img.astype(np.float64)
    smooth = f.copy()
    if f.shape[0] > 2 and f.shape[1] > 2:
        acc = sum(f[1 + dy:f.shape[0] - 1 + dy, 1 + dx:f.shape[1] - 1 + dx]
                  for dy in (-1, 0, 1) for dx in (-1, 0, 1)) + 4 * f[1:-1, 1:-1]
        inner = acc / 13.0
        smooth[1:-1, 1:-1] = np.rint(inner) if img.dtype == np.uint8 else inner
    return blend(img, smooth, factor)


def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc, minc = rgb.max(-1), rgb.min(-1)
    v = maxc
    delta = maxc - minc
    s = np.where(maxc > 0, delta / np.where(maxc > 0, maxc, 1), 0)
    d = np.where(delta > 0, delta, 1)
    h = np.where(maxc == r, (g - b) / d, np.where(maxc == g, 2.0 + (b - r) / d, 4.0 + (r - g) / d))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return h, s, v


def _hsv_to_rgb(h, s, v):
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(np.int64) % 6
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    return np.stack([r, g, b], -1)


def hue(img, factor):
    scale = 255.0 if img.dtype == np.uint8 else 1.0
    h, s, v = _rgb_to_hsv(img.astype(np.float64) / scale)
    return _as_type_of(_hsv_to_rgb((h + factor) % 1.0, s, v) * scale, img)


def invert(img):
    return (255 - img) if img.dtype == np.uint8 else _as_type_of(255.0 - img.astype(np.float64), img)


def posterize(img, bits):
    return img & np.uint8((0xFF << (8 - bits)) & 0xFF)


def solarize(img, low, high):
    """Pixels in [low, high] inverted."""
    return np.where((img >= low) & (img <= high), invert(img), img)


def _channels(img):
    return [img] if img.ndim == 2 else [img[..., c] for c in range(img.shape[2])]


def _per_channel(img, lut_of):
    out = [lut_of(np.bincount(ch.ravel(), minlength=256)).astype(np.uint8)[ch] for ch in _channels(img)]
    return out[0] if img.ndim == 2 else np.stack(out, -1)


def _equalize_lut(hist):
    used = hist[hist > 0]
    if used.size <= 1:
        return np.arange(256)
    step = (int(used.sum()) - int(used[-1])) // 255
    if step == 0:
        return np.arange(256)
    return (step // 2 + np.concatenate([[0], np.cumsum(hist)[:-1]])) // step


def equalize(img):
    return _per_channel(img, lambda h: np.clip(_equalize_lut(h), 0, 255))


def autocontrast(img, cutoff=0.0, ignore=()):
    def lut(hist):
        hist = hist.copy()
        for g in ignore:
            hist[g] = 0
        if cutoff:
            total = int(hist.sum())
            for order in (range(256), range(255, -1, -1)):
                cut = total * cutoff // 100
                for i in order:
                    taken = min(cut, hist[i])
                    hist[i] -= taken
                    cut -= taken
                    if cut <= 0:
                        break
        nonzero = np.nonzero(hist)[0]
        if nonzero.size == 0 or nonzero[-1] <= nonzero[0]:
            return np.arange(256)
        lo, hi = nonzero[0], nonzero[-1]
        scale = 255.0 / (hi - lo)
        return np.clip((np.arange(256) * scale - lo * scale).astype(np.int64), 0, 255)
    return _per_channel(img, lut)


class _Adjust(_PyTransform):
    _who = ""

    def __init__(self, factor, name, high=None):
        self.factor = _factor(name, factor, 0.0, high)


class AdjustBrightness(_Adjust):
    """Scales the pixels by brightness_factor (0: black, 1: unchanged)."""

    def __init__(self, brightness_factor):
        super().__init__(brightness_factor, "brightness_factor")

    def _apply(self, img):
        return brightness(_rgb("AdjustBrightness", img), self.factor)


class AdjustContrast(_Adjust):
    """Blends with the image's mean grey by contrast_factor (0: flat grey)."""

    def __init__(self, contrast_factor):
        super().__init__(contrast_factor, "contrast_factor")

    def _apply(self, img):
        return contrast(_rgb("AdjustContrast", img), self.factor)


class AdjustSaturation(_Adjust):
    """Blends with the image's grey version by saturation_factor (0: grey)."""

    def __init__(self, saturation_factor):
        super().__init__(saturation_factor, "saturation_factor")

    def _apply(self, img):
        return saturation(_rgb("AdjustSaturation", img), self.factor)


class AdjustSharpness(_Adjust):
    """Blends with a smoothed image by sharpness_factor (0: smooth, 1: unchanged, 2: sharper)."""

    def __init__(self, sharpness_factor):
        super().__init__(sharpness_factor, "sharpness_factor")

    def _apply(self, img):
        return sharpness(_image("AdjustSharpness", img), self.factor)


class AdjustHue(_PyTransform):
    """Shifts the hue by hue_factor turns, in [-0.5, 0.5]."""

    def __init__(self, hue_factor):
        self.factor = _factor("hue_factor", hue_factor, -0.5, 0.5)

    def _apply(self, img):
        return hue(_rgb("AdjustHue", img), self.factor)


def _jitter(name, value, center, bound=None):
    """RandomColorAdjust's ranges: a number v gives [max(0, center - v), center + v]."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        if value < 0:
            raise ValueError("Input %s is not within the required interval of [0, 16777216]." % name)
        lo, hi = center - value, center + value
        if bound is None:
            lo = max(lo, 0.0)
        value = (lo, hi)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError("Argument %s with value %s is not of type [<class 'float'>, <class 'list'>, "
                        "<class 'tuple'>]." % (name, value))
    lo, hi = float(value[0]), float(value[1])
    limit = (0.0, 16777216.0) if bound is None else bound
    if not limit[0] <= lo <= hi <= limit[1]:
        raise ValueError("Input %s is not within the required interval of [%s, %s] in (min, max) order."
                         % (name, limit[0], limit[1]))
    return (lo, hi)


class RandomColorAdjust(_PyTransform):
    """Brightness, contrast, saturation and hue, each factor drawn from its range, applied in a
    random order."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _jitter("brightness", brightness, 1.0)
        self.contrast = _jitter("contrast", contrast, 1.0)
        self.saturation = _jitter("saturation", saturation, 1.0)
        self.hue = _jitter("hue", hue, 0.0, (-0.5, 0.5))

    def _apply(self, img):
        img = _rgb("RandomColorAdjust", img)
        steps = [(brightness, self.brightness, 1.0), (contrast, self.contrast, 1.0),
                 (saturation, self.saturation, 1.0), (hue, self.hue, 0.0)]
        for i in np.random.permutation(4):
            fn, (lo, hi), identity = steps[i]
            if lo == hi == identity:
                continue
            img = fn(img, np.random.uniform(lo, hi))
        return img


class ConvertMode(enum.IntEnum):
    """ConvertColor's conversions (OpenCV's codes; aliases name the same conversion)."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def _alpha(img):
    full = 255 if img.dtype == np.uint8 else 1
    return np.full(img.shape[:2] + (1,), full, img.dtype)


def _grey_of(img, order):
    g = img[..., :3].astype(np.float64) @ (_GREY if order == "rgb" else _GREY[::-1])
    return _as_type_of(g, img)


_CONVERSIONS = {
    0: (3, lambda i: np.concatenate([i, _alpha(i)], -1)),
    1: (4, lambda i: i[..., :3].copy()),
    2: (3, lambda i: np.concatenate([i[..., ::-1], _alpha(i)], -1)),
    3: (4, lambda i: i[..., 2::-1].copy()),
    4: (3, lambda i: i[..., ::-1].copy()),
    5: (4, lambda i: np.concatenate([i[..., 2::-1], i[..., 3:]], -1)),
    6: (3, lambda i: _grey_of(i, "bgr")),
    7: (3, lambda i: _grey_of(i, "rgb")),
    8: (1, lambda i: np.repeat(i, 3, -1)),
    9: (1, lambda i: np.concatenate([np.repeat(i, 3, -1), _alpha(i)], -1)),
    10: (4, lambda i: _grey_of(i, "bgr")),
    11: (4, lambda i: _grey_of(i, "rgb")),
}


class ConvertColor(_PyTransform):
    """Converts between colour spaces (RGB, BGR, their alpha forms, grey) as OpenCV's cvtColor;
    grey results are <H, W>."""

    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError("Argument convert_mode with value %s is not of type [<enum 'ConvertMode'>], but got %s."
                            % (convert_mode, type(convert_mode)))
        self.convert_mode = convert_mode

    def _apply(self, img):
        img = _image("ConvertColor", img)
        channels, fn = _CONVERSIONS[int(self.convert_mode)]
        if img.ndim == 2 and channels == 1:
            img = img[:, :, None]
        if img.ndim != 3 or img.shape[2] != channels:
            raise RuntimeError("ConvertColor: %s needs an image of %d channel(s), but got shape %s."
                               % (self.convert_mode.name, channels, img.shape))
        return fn(img)


def _grey_channels(img, count):
    g = _as_type_of(grey(img), img)
    return g if count == 1 else np.repeat(g[:, :, None], count, -1)


class Grayscale(_PyTransform):
    """The image's luma, <H, W> (num_output_channels=1) or repeated in 3 channels."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3) or isinstance(num_output_channels, bool):
            raise ValueError("Number of channels of the output grayscale image should be either 1 or 3.")
        self.num_output_channels = num_output_channels

    def _apply(self, img):
        return _grey_channels(_rgb("Grayscale", img), self.num_output_channels)


class RandomGrayscale(_PyTransform):
    """With probability prob, the luma repeated in the image's 3 channels."""

    def __init__(self, prob=0.1):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _rgb("RandomGrayscale", img)
        return _grey_channels(img, 3) if np.random.random() < self.prob else img


class Invert(_PyTransform):
    """255 - pixel, per channel."""

    def _apply(self, img):
        return invert(_image("Invert", img))


class Equalize(_PyTransform):
    """Histogram equalization of each channel (PIL's ImageOps.equalize)."""

    def _apply(self, img):
        return equalize(_uint8("Equalize", _image("Equalize", img)))


def _check_autocontrast(cutoff, ignore):
    cutoff = _factor("cutoff", cutoff, 0.0, 50.0)
    if cutoff >= 50.0:
        raise ValueError("Input cutoff is not within the required interval of [0, 50).")
    if ignore is None:
        ignore = ()
    elif isinstance(ignore, numbers.Integral) and not isinstance(ignore, bool):
        ignore = (ignore,)
    if not isinstance(ignore, (tuple, list)) or any(not 0 <= g <= 255 for g in ignore):
        raise ValueError("Input ignore is not within the required interval of [0, 255].")
    return cutoff, tuple(int(g) for g in ignore)


class AutoContrast(_PyTransform):
    """Stretches each channel's histogram to 0..255 after dropping cutoff percent at each end and
    the ignored values (PIL's ImageOps.autocontrast)."""

    def __init__(self, cutoff=0.0, ignore=None):
        self.cutoff, self.ignore = _check_autocontrast(cutoff, ignore)

    def _apply(self, img):
        return autocontrast(_uint8("AutoContrast", _image("AutoContrast", img)), self.cutoff, self.ignore)


class RandomAutoContrast(AutoContrast):
    """AutoContrast with probability prob."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(cutoff, ignore)
        self.prob = _check_prob(prob)

    def _apply(self, img):
        return super()._apply(img) if np.random.random() < self.prob else _image("RandomAutoContrast", img)


class RandomEqualize(_PyTransform):
    """Equalize with probability prob."""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _uint8("RandomEqualize", _image("RandomEqualize", img))
        return equalize(img) if np.random.random() < self.prob else img


class RandomInvert(_PyTransform):
    """Invert with probability prob."""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _image("RandomInvert", img)
        return invert(img) if np.random.random() < self.prob else img


class RandomSharpness(_PyTransform):
    """AdjustSharpness with a factor drawn from degrees (min, max)."""

    def __init__(self, degrees=(0.1, 1.9)):
        if not isinstance(degrees, (tuple, list)) or len(degrees) != 2:
            raise TypeError("Argument degrees with value %s is not of type [<class 'list'>, <class 'tuple'>]."
                            % (degrees,))
        lo, hi = _factor("degrees", degrees[0]), _factor("degrees", degrees[1])
        if lo > hi:
            raise ValueError("degrees should be in (min,max) format. Got (max,min).")
        self.degrees = (lo, hi)

    def _apply(self, img):
        return sharpness(_image("RandomSharpness", img), np.random.uniform(*self.degrees))


def _bits(bits):
    if isinstance(bits, numbers.Integral) and not isinstance(bits, bool):
        bits = (bits, bits)
    if not isinstance(bits, (tuple, list)) or len(bits) != 2 or not all(
            isinstance(b, numbers.Integral) and not isinstance(b, bool) for b in bits):
        raise TypeError("Argument bits with value %s is not of type [<class 'int'>, <class 'list'>, "
                        "<class 'tuple'>]." % (bits,))
    if not 1 <= bits[0] <= bits[1] <= 8:
        raise ValueError("Input bits is not within the required interval of [1, 8] in (min, max) order.")
    return (int(bits[0]), int(bits[1]))


class Posterize(_PyTransform):
    """Keeps the bits highest bits of each uint8 pixel."""

    def __init__(self, bits):
        if isinstance(bits, bool) or not isinstance(bits, numbers.Integral):
            raise TypeError("Argument bits with value %s is not of type [<class 'int'>]." % (bits,))
        self.bits = _bits(bits)[0]

    def _apply(self, img):
        return posterize(_uint8("Posterize", _image("Posterize", img)), self.bits)


class RandomPosterize(_PyTransform):
    """Posterize with a bit count drawn from bits (int or (min, max) in [1, 8])."""

    def __init__(self, bits=(8, 8)):
        self.bits = _bits(bits)

    def _apply(self, img):
        img = _uint8("RandomPosterize", _image("RandomPosterize", img))
        return posterize(img, np.random.randint(self.bits[0], self.bits[1] + 1))


class Solarize(_PyTransform):
    """Inverts the pixels within threshold (a number t: [t, 255]; or (min, max))."""

    def __init__(self, threshold):
        if isinstance(threshold, numbers.Number) and not isinstance(threshold, bool):
            threshold = (threshold, 255)
        if not isinstance(threshold, (tuple, list)) or len(threshold) != 2:
            raise TypeError("Argument threshold with value %s is not of type [<class 'float'>, <class 'tuple'>]."
                            % (threshold,))
        lo, hi = _factor("threshold", threshold[0], 0, 255), _factor("threshold", threshold[1], 0, 255)
        if lo > hi:
            raise ValueError("threshold must be in order of (min, max).")
        self.threshold = (lo, hi)

    def _apply(self, img):
        return solarize(_image("Solarize", img), *self.threshold)


class AdjustGamma(_PyTransform):
    """gain * image ** gamma, uint8 images taken as fractions of 255."""

    def __init__(self, gamma, gain=1):
        self.gamma = _factor("gamma", gamma)
        if isinstance(gain, bool) or not isinstance(gain, numbers.Number):
            raise TypeError("Argument gain with value %s is not of type [<class 'float'>, <class 'int'>]." % (gain,))
        self.gain = float(gain)

    def _apply(self, img):
        img = _image("AdjustGamma", img)
        if img.dtype == np.uint8:
            return _as_type_of(np.clip(255.0 * self.gain * (img / 255.0) ** self.gamma, 0, 255), img)
        return _as_type_of(self.gain * img.astype(np.float64) ** self.gamma, img)


class RandomAdjustSharpness(_PyTransform):
    """AdjustSharpness(degree) with probability prob."""

    def __init__(self, degree, prob=0.5):
        self.degree = _factor("degree", degree)
        self.prob = _check_prob(prob)

    def _apply(self, img):
        img = _image("RandomAdjustSharpness", img)
        return sharpness(img, self.degree) if np.random.random() < self.prob else img


class RandomSolarize(_PyTransform):
    """Solarize over a sub-range drawn inside threshold (min, max)."""

    def __init__(self, threshold=(0, 255)):
        if not isinstance(threshold, (tuple, list)) or len(threshold) != 2:
            raise TypeError("Argument threshold with value %s is not of type [<class 'tuple'>]." % (threshold,))
        lo, hi = _factor("threshold", threshold[0], 0, 255), _factor("threshold", threshold[1], 0, 255)
        if lo > hi:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = (int(lo), int(hi))

    def _apply(self, img):
        img = _image("RandomSolarize", img)
        a, b = sorted(np.random.randint(self.threshold[0], self.threshold[1] + 1, size=2))
        return solarize(img, a, b)


def _hsv_layout(who, img, is_hwc):
    img = _image(who, img)
    if img.ndim != 3 or img.shape[2 if is_hwc else 0] != 3:
        raise RuntimeError("%s: the image must be <%s> with 3 channels, but got shape %s."
                           % (who, "H, W, C" if is_hwc else "C, H, W", img.shape))
    return img if is_hwc else img.transpose(1, 2, 0)


def _hsv_result(hwc, img, is_hwc):
    """In the input's layout, and its dtype when that is a float one."""
    out = hwc if is_hwc else hwc.transpose(2, 0, 1)
    return out.astype(img.dtype if img.dtype.kind == "f" else np.float64)


class RgbToHsv(_PyTransform):
    """RGB to HSV, all in [0, 1] (a float image; <C, H, W> unless is_hwc)."""

    def __init__(self, is_hwc=False):
        if not isinstance(is_hwc, bool):
            raise TypeError("Argument is_hwc with value %s is not of type [<class 'bool'>]." % (is_hwc,))
        self.is_hwc = is_hwc

    def _apply(self, img):
        hwc = _hsv_layout("RgbToHsv", img, self.is_hwc).astype(np.float64)
        out = np.stack(_rgb_to_hsv(hwc), -1)
        return _hsv_result(out, img, self.is_hwc)


class HsvToRgb(RgbToHsv):
    """HSV to RGB, all in [0, 1] (a float image; <C, H, W> unless is_hwc)."""

    def _apply(self, img):
        hwc = _hsv_layout("HsvToRgb", img, self.is_hwc).astype(np.float64)
        out = _hsv_to_rgb(hwc[..., 0] % 1.0, hwc[..., 1], hwc[..., 2])
        return _hsv_result(out, img, self.is_hwc)


for _name in ("AdjustGamma", "RandomAdjustSharpness", "RandomSolarize", "RgbToHsv", "HsvToRgb",
              "AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustSharpness", "AdjustHue",
              "RandomColorAdjust", "ConvertMode", "ConvertColor", "Grayscale", "RandomGrayscale", "Invert",
              "Equalize", "AutoContrast", "RandomAutoContrast", "RandomEqualize", "RandomInvert",
              "RandomSharpness", "Posterize", "RandomPosterize", "Solarize"):
    setattr(_vision, _name, globals()[_name])
