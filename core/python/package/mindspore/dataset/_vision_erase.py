"""The vision transforms of MindSpore 2.2 that blank or mix regions: RandomErasing (on <C, H, W>
images, after ToTensor), CutOut, and the batch mixers MixUpBatch and CutMixBatch (+ ImageBatchFormat)
that take a batch of images and its one-hot labels."""
import enum
import math
import numbers

import numpy as np

import mindspore.dataset.vision as _vision
from mindspore.dataset._transforms_py import _PyTransform, _as_type_of, _check_prob
from mindspore.dataset._vision_geometry import _check_scale_ratio


class RandomErasing(_PyTransform):
    """With probability prob, fills a random region of a <C, H, W> image (area fraction in scale,
    aspect ratio in ratio) with value: a number, one per channel, or 'random' (standard normal)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        self.prob = _check_prob(prob)
        self.scale, self.ratio, self.max_attempts = _check_scale_ratio(scale, ratio, max_attempts)
        if value != "random" and not isinstance(value, (numbers.Number, tuple, list)):
            raise TypeError("Argument value with value %s is not of type [<class 'int'>, <class 'tuple'>, "
                            "<class 'str'>]." % (value,))
        if isinstance(value, (tuple, list)) and len(value) != 3:
            raise ValueError("value should be a single integer, a 3-tuple or 'random'.")
        if not isinstance(inplace, bool):
            raise TypeError("Argument inplace with value %s is not of type [<class 'bool'>]." % (inplace,))
        self.value, self.inplace = value, inplace

    def _apply(self, img):
        if img.ndim != 3:
            raise RuntimeError("RandomErasing: the image must be <C, H, W>, but got shape %s." % (img.shape,))
        if np.random.random() >= self.prob:
            return img
        c, h, w = img.shape
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            area = h * w * np.random.uniform(*self.scale)
            aspect = math.exp(np.random.uniform(*log_ratio))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if eh < h and ew < w:
                top, left = np.random.randint(0, h - eh + 1), np.random.randint(0, w - ew + 1)
                if self.value == "random":
                    fill = np.random.normal(size=(c, eh, ew))
                else:
                    fill = np.asarray(self.value, np.float64).reshape(-1, 1, 1)
                out = img if self.inplace and img.flags.writeable else img.copy()
                out[:, top:top + eh, left:left + ew] = _as_type_of(np.broadcast_to(fill, (c, eh, ew)), img)
                return out
        return img


class CutOut(_PyTransform):
    """Zeroes num_patches squares of side length at random places (clipped to the image)."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        for name, value in (("length", length), ("num_patches", num_patches)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError("Argument %s with value %s is not of type [<class 'int'>]." % (name, value))
            if value < 1:
                raise ValueError("Input %s is not within the required interval of [1, 2147483647]." % name)
        if not isinstance(is_hwc, bool):
            raise TypeError("Argument is_hwc with value %s is not of type [<class 'bool'>]." % (is_hwc,))
        self.length, self.num_patches, self.is_hwc = int(length), int(num_patches), is_hwc

    def _apply(self, img):
        if img.ndim != 3:
            raise RuntimeError("CutOut: the image must be <H, W, C> or <C, H, W>, but got shape %s." % (img.shape,))
        out = img.copy()
        view = out if self.is_hwc else out.transpose(1, 2, 0)
        h, w = view.shape[:2]
        lh, lw = min(self.length, h), min(self.length, w)
        for _ in range(self.num_patches):
            top, left = np.random.randint(0, h - lh + 1), np.random.randint(0, w - lw + 1)
            view[top:top + lh, left:left + lw] = 0
        return out


class Erase(_PyTransform):
    """Fills the region (top, left, height, width) of an <H, W, C> image with value (a number or
    one per channel)."""

    def __init__(self, top, left, height, width, value=0, inplace=False):
        for name, v in (("top", top), ("left", left), ("height", height), ("width", width)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                raise ValueError("Input %s is not within the required interval of [0, 2147483647]." % name)
        if not isinstance(value, (numbers.Number, tuple, list)) or isinstance(value, bool):
            raise TypeError("Argument value with value %s is not of type [<class 'int'>, <class 'float'>, "
                            "<class 'tuple'>]." % (value,))
        if not isinstance(inplace, bool):
            raise TypeError("Argument inplace with value %s is not of type [<class 'bool'>]." % (inplace,))
        self.box, self.value, self.inplace = (int(top), int(left), int(height), int(width)), value, inplace

    def _apply(self, img):
        if img.ndim != 3:
            raise RuntimeError("Erase: the image must be <H, W, C>, but got shape %s." % (img.shape,))
        top, left, eh, ew = self.box
        out = img if self.inplace and img.flags.writeable else img.copy()
        out[top:top + eh, left:left + ew] = _as_type_of(np.asarray(self.value, np.float64), img)
        return out


class ImageBatchFormat(enum.IntEnum):
    """The layout of a batch of images: NHWC or NCHW."""
    NHWC = 0
    NCHW = 1


def _check_alpha(alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Number):
        raise TypeError("Argument alpha with value %s is not of type [<class 'int'>, <class 'float'>]." % (alpha,))
    if alpha <= 0:
        raise ValueError("Input alpha is not within the required interval of (0, 16777216].")
    return float(alpha)


def _batch(who, images, labels):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise RuntimeError("%s: the images must be a batch <N, H, W, C> or <N, C, H, W>, but got shape %s; "
                           "batch the dataset before this operation." % (who, images.shape))
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise RuntimeError("%s: wrong labels shape. The second column (labels) must have a shape of NC or NLC "
                           "with N the batch size %d, but got %s." % (who, images.shape[0], labels.shape))
    return images, labels.astype(np.float32)


class MixUpBatch:
    """Mixes each image and label of a batch with another's of the same batch:
    lam x_i + (1 - lam) x_j, lam drawn from Beta(alpha, alpha)."""

    def __init__(self, alpha=1.0):
        self.alpha = _check_alpha(alpha)

    def __call__(self, images, labels):
        images, labels = _batch("MixUpBatch", images, labels)
        lam = np.random.beta(self.alpha, self.alpha)
        other = np.random.permutation(images.shape[0])
        mixed = lam * images.astype(np.float64) + (1 - lam) * images[other].astype(np.float64)
        return _as_type_of(mixed, images), (lam * labels + (1 - lam) * labels[other]).astype(np.float32)


class CutMixBatch:
    """With probability prob per image, pastes a box from another image of the batch (its side
    sqrt(1 - lam) of the image's, lam from Beta(alpha, alpha)) and mixes the labels by the pasted
    area."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        if not isinstance(image_batch_format, ImageBatchFormat):
            raise TypeError("Argument image_batch_format with value %s is not of type [<enum 'ImageBatchFormat'>]."
                            % (image_batch_format,))
        self.image_batch_format = image_batch_format
        self.alpha = _check_alpha(alpha)
        self.prob = _check_prob(prob)

    def __call__(self, images, labels):
        images, labels = _batch("CutMixBatch", images, labels)
        out_images, out_labels = images.copy(), labels.copy()
        nhwc = out_images if self.image_batch_format == ImageBatchFormat.NHWC else out_images.transpose(0, 2, 3, 1)
        source = images if self.image_batch_format == ImageBatchFormat.NHWC else images.transpose(0, 2, 3, 1)
        n, h, w = nhwc.shape[:3]
        for i in range(n):
            if np.random.random() >= self.prob:
                continue
            lam = np.random.beta(self.alpha, self.alpha)
            j = np.random.randint(n)
            cut = math.sqrt(1 - lam)
            ch, cw = int(h * cut), int(w * cut)
            cy, cx = np.random.randint(h), np.random.randint(w)
            y0, y1 = max(cy - ch // 2, 0), min(cy + ch // 2, h)
            x0, x1 = max(cx - cw // 2, 0), min(cx + cw // 2, w)
            nhwc[i, y0:y1, x0:x1] = source[j, y0:y1, x0:x1]
            kept = 1 - (y1 - y0) * (x1 - x0) / float(h * w)
            out_labels[i] = kept * labels[i] + (1 - kept) * labels[j]
        return out_images, out_labels


for _name in ("Erase", "RandomErasing", "CutOut", "ImageBatchFormat", "MixUpBatch", "CutMixBatch"):
    setattr(_vision, _name, globals()[_name])
