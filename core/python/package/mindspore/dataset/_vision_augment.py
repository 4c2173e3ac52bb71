"""The automatic augmentation policies of MindSpore 2.2 over <H, W, 3> uint8 images: AutoAugment
(+ AutoAugmentPolicy; the ImageNet policy), RandAugment, TrivialAugmentWide and UniformAugment.
The operations and magnitude tables are those of the papers as torchvision and MindSpore use them."""
import enum
import math
import numbers

import numpy as np

import mindspore.dataset.vision as _vision
from mindspore.dataset._transforms_py import Inter, _image
from mindspore.dataset._vision_color import (autocontrast, brightness, contrast, equalize, invert, posterize,
                                             saturation, sharpness, solarize)
from mindspore.dataset._vision_warp import affine_matrix, check_fill, check_interpolation, warp


def _affine(img, interpolation, fill, angle=0.0, translate=(0, 0), shear=(0.0, 0.0), center=None):
    h, w = img.shape[:2]
    c = ((w - 1) / 2.0, (h - 1) / 2.0) if center is None else center
    forward = affine_matrix(c, angle, translate, 1.0, shear)
    return warp(img, np.linalg.inv(forward), h, w, interpolation, fill)


def apply_op(img, name, magnitude, interpolation, fill):
    """One augmentation operation at a magnitude (already signed)."""
    if name == "ShearX":
        return _affine(img, interpolation, fill, shear=(math.degrees(math.atan(magnitude)), 0.0), center=(0, 0))
    if name == "ShearY":
        return _affine(img, interpolation, fill, shear=(0.0, math.degrees(math.atan(magnitude))), center=(0, 0))
    if name == "TranslateX":
        return _affine(img, interpolation, fill, translate=(int(magnitude), 0))
    if name == "TranslateY":
        return _affine(img, interpolation, fill, translate=(0, int(magnitude)))
    if name == "Rotate":
        return _affine(img, interpolation, fill, angle=magnitude)
    if name == "Brightness":
        return brightness(img, 1.0 + magnitude)
    if name == "Color":
        return saturation(img, 1.0 + magnitude)
    if name == "Contrast":
        return contrast(img, 1.0 + magnitude)
    if name == "Sharpness":
        return sharpness(img, 1.0 + magnitude)
    if name == "Posterize":
        return posterize(img, int(magnitude))
    if name == "Solarize":
        return solarize(img, magnitude, 255)
    if name == "AutoContrast":
        return autocontrast(img)
    if name == "Equalize":
        return equalize(img)
    if name == "Invert":
        return invert(img)
    return img  # Identity


_SIGNED = {"ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color", "Contrast", "Sharpness"}


def _magnitudes(bins, h, w, wide=False):
    """Each operation's magnitude per bin (RandAugment's table, or TrivialAugmentWide's)."""
    posterize_levels = 8 - np.round(np.arange(bins) / ((bins - 1) / (6.0 if wide else 4.0))).astype(np.int64)
    if wide:
        shear, tx, ty, rot, col = (np.linspace(0, 0.99, bins), np.linspace(0, 32.0, bins),
                                   np.linspace(0, 32.0, bins), np.linspace(0, 135.0, bins), np.linspace(0, 0.99, bins))
    else:
        shear, tx, ty, rot, col = (np.linspace(0, 0.3, bins), np.linspace(0, 150.0 / 331.0 * w, bins),
                                   np.linspace(0, 150.0 / 331.0 * h, bins), np.linspace(0, 30.0, bins),
                                   np.linspace(0, 0.9, bins))
    zero = np.zeros(bins)
    return {"Identity": zero, "ShearX": shear, "ShearY": shear, "TranslateX": tx, "TranslateY": ty, "Rotate": rot,
            "Brightness": col, "Color": col, "Contrast": col, "Sharpness": col, "Posterize": posterize_levels,
            "Solarize": np.linspace(255.0, 0.0, bins), "AutoContrast": zero, "Equalize": zero}


def _rgb_uint8(who, img):
    img = _image(who, img)
    if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
        raise RuntimeError("%s: the image must be <H, W, 3> of uint8, but got shape %s of %s."
                           % (who, img.shape, img.dtype))
    return img


def _signed(name, value):
    return -value if name in _SIGNED and np.random.random() < 0.5 else value


class AutoAugmentPolicy(enum.IntEnum):
    """The AutoAugment policies learned on ImageNet, CIFAR-10 and SVHN."""
    IMAGENET = 0
    CIFAR10 = 1
    SVHN = 2


# (operation, probability, magnitude bin) pairs of the ImageNet policy.
_IMAGENET = [
    (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
    (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
    (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
    (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
    (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
    (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
    (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
]


def _auto_magnitude(name, index, h, w):
    """AutoAugment's magnitude of bin index (of 10)."""
    table = {"ShearX": np.linspace(0, 0.3, 10), "ShearY": np.linspace(0, 0.3, 10),
             "TranslateX": np.linspace(0, 150.0 / 331.0 * w, 10), "TranslateY": np.linspace(0, 150.0 / 331.0 * h, 10),
             "Rotate": np.linspace(0, 30.0, 10), "Brightness": np.linspace(0, 0.9, 10),
             "Color": np.linspace(0, 0.9, 10), "Contrast": np.linspace(0, 0.9, 10),
             "Sharpness": np.linspace(0, 0.9, 10),
             "Posterize": 8 - np.round(np.arange(10) / ((10 - 1) / 4.0)).astype(np.int64),
             "Solarize": np.linspace(255.0, 0.0, 10)}
    return 0.0 if index is None else float(table[name][index])


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("Argument %s with value %s is not of type [<class 'int'>], but got %s."
                        % (name, value, type(value)))
    if not low <= value <= high:
        raise ValueError("Input %s is not within the required interval of [%d, %d]." % (name, low, high))
    return int(value)


class AutoAugment:
    """One sub-policy of policy picked at random per image, each of its two operations applied
    with its probability."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError("Argument policy with value %s is not of type [<enum 'AutoAugmentPolicy'>]." % (policy,))
        if policy != AutoAugmentPolicy.IMAGENET:
            raise ValueError("AutoAugment: gradstep has the ImageNet policy only, but got AutoAugmentPolicy.%s."
                             % policy.name)
        self.policy = policy
        self.interpolation = check_interpolation("AutoAugment", interpolation, "interpolation")
        self.fill_value = check_fill(fill_value)

    def __call__(self, img):
        img = _rgb_uint8("AutoAugment", np.asarray(img))
        h, w = img.shape[:2]
        for name, prob, index in _IMAGENET[np.random.randint(len(_IMAGENET))]:
            if np.random.random() < prob:
                img = apply_op(img, name, _signed(name, _auto_magnitude(name, index, h, w)),
                               self.interpolation, self.fill_value)
        return img


class RandAugment:
    """num_ops operations drawn uniformly per image, each at bin magnitude of num_magnitude_bins."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        self.num_ops = _check_int("num_ops", num_ops, 0, 2 ** 31 - 1)
        self.num_magnitude_bins = _check_int("num_magnitude_bins", num_magnitude_bins, 2, 2 ** 31 - 1)
        self.magnitude = _check_int("magnitude", magnitude, 0, self.num_magnitude_bins - 1)
        self.interpolation = check_interpolation("RandAugment", interpolation, "interpolation")
        self.fill_value = check_fill(fill_value)

    def __call__(self, img):
        img = _rgb_uint8("RandAugment", np.asarray(img))
        table = _magnitudes(self.num_magnitude_bins, img.shape[0], img.shape[1])
        names = list(table)
        for _ in range(self.num_ops):
            name = names[np.random.randint(len(names))]
            img = apply_op(img, name, _signed(name, float(table[name][self.magnitude])),
                           self.interpolation, self.fill_value)
        return img


class TrivialAugmentWide:
    """One operation and one magnitude bin, both drawn uniformly per image (the wide ranges)."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        self.num_magnitude_bins = _check_int("num_magnitude_bins", num_magnitude_bins, 2, 2 ** 31 - 1)
        self.interpolation = check_interpolation("TrivialAugmentWide", interpolation, "interpolation")
        self.fill_value = check_fill(fill_value)

    def __call__(self, img):
        img = _rgb_uint8("TrivialAugmentWide", np.asarray(img))
        table = _magnitudes(self.num_magnitude_bins, img.shape[0], img.shape[1], wide=True)
        names = list(table)
        name = names[np.random.randint(len(names))]
        value = float(table[name][np.random.randint(self.num_magnitude_bins)])
        return apply_op(img, name, _signed(name, value), self.interpolation, self.fill_value)


class UniformAugment:
    """num_ops of transforms, drawn without repeats, applied in random order."""

    def __init__(self, transforms, num_ops=2):
        if not isinstance(transforms, (list, tuple)) or not transforms or not all(callable(t) for t in transforms):
            raise TypeError("UniformAugment: transforms must be a non-empty list of transforms, but got %s."
                            % (transforms,))
        self.transforms = list(transforms)
        self.num_ops = _check_int("num_ops", num_ops, 1, 2 ** 31 - 1)
        if self.num_ops > len(self.transforms):
            raise ValueError("num_ops is greater than transforms list size.")

    def __call__(self, img):
        for i in np.random.permutation(len(self.transforms))[:self.num_ops]:
            img = self.transforms[i](img)
        return img


for _name in ("AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide", "UniformAugment"):
    setattr(_vision, _name, globals()[_name])
