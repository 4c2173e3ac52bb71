"""Colour vision transforms against direct NumPy computations on uint8 images: Invert, Posterize,
Solarize, ConvertColor, Grayscale, AdjustBrightness / Contrast / Saturation / Hue, Equalize and
AutoContrast (PIL's histogram rules, computed here by hand); random variants' shapes and seeds;
PIL images in give PIL images out when PIL is installed."""
import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.vision as V
from mindspore.dataset.vision import ConvertMode

from _check import raises

rng = np.random.RandomState(1)
img = rng.randint(0, 256, (6, 7, 3)).astype(np.uint8)
grey = np.rint(img @ np.array([0.299, 0.587, 0.114]))

assert np.array_equal(V.Invert()(img), 255 - img)
assert np.array_equal(V.Posterize(3)(img), img & 0b11100000)
assert np.array_equal(V.Solarize(100)(img), np.where(img >= 100, 255 - img, img))
assert np.array_equal(V.ConvertColor(ConvertMode.COLOR_RGB2BGR)(img), img[..., ::-1])
assert np.array_equal(V.ConvertColor(ConvertMode.COLOR_RGB2GRAY)(img), grey)
rgba = V.ConvertColor(ConvertMode.COLOR_RGB2RGBA)(img)
assert rgba.shape == (6, 7, 4) and np.all(rgba[..., 3] == 255) and np.array_equal(rgba[..., :3], img)
grey3 = np.repeat(grey[..., None], 3, -1)
assert np.array_equal(V.ConvertColor(ConvertMode.COLOR_GRAY2RGB)(grey.astype(np.uint8)), grey3)
raises(RuntimeError, V.ConvertColor(ConvertMode.COLOR_RGBA2RGB), img, match="4 channel")
raises(TypeError, V.ConvertColor, 4, match="ConvertMode")
assert np.array_equal(V.Grayscale()(img), grey) and V.Grayscale(3)(img).shape == (6, 7, 3)
raises(ValueError, V.Grayscale, 2, match="1 or 3")

assert np.array_equal(V.AdjustBrightness(1.5)(img), np.clip(np.rint(img * 1.5), 0, 255))
mean = int(grey.mean() + 0.5)
assert np.array_equal(V.AdjustContrast(0.5)(img), np.clip(np.rint(mean + 0.5 * (img - mean.__float__())), 0, 255))
assert np.array_equal(V.AdjustSaturation(0.0)(img), np.repeat(grey[..., None], 3, -1))
assert np.array_equal(V.AdjustHue(0.0)(img), img)
pure = np.array([[[255, 0, 0]]], np.uint8)
assert np.array_equal(V.AdjustHue(1.0 / 3)(pure), [[[0, 255, 0]]])
raises(ValueError, V.AdjustHue, 0.7, match="hue_factor")
raises(ValueError, V.AdjustBrightness, -1.0, match="brightness_factor")
assert np.array_equal(V.AdjustSharpness(1.0)(img), img)


def equalized(channel):
    hist = np.bincount(channel.ravel(), minlength=256)
    step = (hist.sum() - hist[np.nonzero(hist)[0][-1]]) // 255
    lut = (step // 2 + np.concatenate([[0], np.cumsum(hist)[:-1]])) // step
    return np.clip(lut, 0, 255)[channel]


big = rng.randint(0, 256, (40, 40, 3)).astype(np.uint8) // 2
assert np.array_equal(V.Equalize()(big), np.stack([equalized(big[..., c]) for c in range(3)], -1))
assert np.array_equal(V.Equalize()(img), img)  # too few pixels for a step: PIL keeps the image
raises(RuntimeError, V.Equalize(), img.astype(np.float32), match="uint8")
low = (img // 4 + 50).astype(np.uint8)
lo, hi = low.min(axis=(0, 1)), low.max(axis=(0, 1))
scale = 255.0 / (hi - lo)
stretched = (low * scale - lo * scale).astype(np.int64)  # PIL: ix * scale + offset, truncated
assert np.array_equal(V.AutoContrast()(low), stretched)

assert np.array_equal(V.AdjustGamma(2.0)(img), np.rint(255 * (img / 255.0) ** 2))
assert np.allclose(V.AdjustGamma(0.5, 2)(np.float32([[[0.25]]])), [[[1.0]]])
assert np.array_equal(V.RandomAdjustSharpness(1.0, prob=1.0)(img), img)
fimg = img.astype(np.float32) / 255
hsv = V.RgbToHsv(is_hwc=True)(fimg)
assert np.allclose(hsv[..., 2], fimg.max(-1)) and np.allclose(V.HsvToRgb(is_hwc=True)(hsv), fimg, atol=1e-6)
assert V.RgbToHsv()(fimg.transpose(2, 0, 1)).shape == (3, 6, 7)
assert np.allclose(V.RgbToHsv(True)(np.float32([[[0, 1, 0]]])), [[[1 / 3, 1, 1]]])

ops = [V.RandomSolarize((50, 200)), V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1), V.RandomGrayscale(0.5),
       V.RandomSharpness(),
       V.RandomPosterize((2, 6)), V.RandomAutoContrast(), V.RandomEqualize(), V.RandomInvert()]
ds.config.set_seed(5)
first = [op(img) for op in ops for _ in range(3)]
ds.config.set_seed(5)
again = [op(img) for op in ops for _ in range(3)]
assert all(a.shape == img.shape and a.dtype == np.uint8 and np.array_equal(a, b) for a, b in zip(first, again))
assert any(not np.array_equal(a, img) for a in first[:3])
assert np.array_equal(V.RandomInvert(1.0)(img), 255 - img) and np.array_equal(V.RandomEqualize(0.0)(img), img)
raises(ValueError, V.RandomColorAdjust, hue=0.8, match="hue")
raises(ValueError, V.RandomPosterize, (0, 4), match="bits")

try:
    from PIL import Image
except ImportError:
    Image = None
if Image is not None:
    out = V.Invert()(Image.fromarray(img))
    assert isinstance(out, Image.Image) and np.array_equal(np.asarray(out), 255 - img)
print("test_vision_color: ok")
