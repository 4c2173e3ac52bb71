"""The decoding and conversion vision transforms of MindSpore 2.2: Decode, RandomCropDecodeResize,
ToType, ToPIL, NormalizePad, GaussianBlur. JPEG / PNG decoding uses PIL when it is installed
(python3-pil); without it Decode says so instead of failing deep inside."""
import io
import numbers

import numpy as np

import mindspore
import mindspore.dataset.vision as _vision
from mindspore.dataset._transforms_py import Inter, Normalize, Resize, _PyTransform, _as_type_of, _image, _size_pair
from mindspore.dataset._vision_geometry import _check_scale_ratio, _hw, crop_box


def _pil_image():
    try:
        from PIL import Image
    except ImportError:
        raise RuntimeError("Decode: decoding JPEG or PNG images needs PIL (Debian package python3-pil), "
                           "which is not installed.") from None
    return Image


def decode_pil(who, data):
    """The PIL image (RGB) of encoded image bytes (a 1-D uint8 array or bytes)."""
    if isinstance(data, (bytes, bytearray)):
        raw = bytes(data)
    else:
        array = np.asarray(data)
        if array.dtype != np.uint8 or array.ndim != 1:
            raise TypeError("%s: the input must be the image file's bytes, a 1-D uint8 array, but got a %s "
                            "array of shape %s." % (who, array.dtype, array.shape))
        raw = array.tobytes()
    image_module = _pil_image()
    try:
        img = image_module.open(io.BytesIO(raw))
        img.load()
    except Exception as e:  # PIL raises several types for undecodable data
        raise RuntimeError("%s: Decode image failed, the data is not a JPEG, PNG, BMP or TIFF image (%s)."
                           % (who, e)) from None
    return img.convert("RGB")


class Decode:
    """Encoded image bytes to an <H, W, 3> uint8 RGB array (or a PIL image when to_pil)."""

    def __init__(self, to_pil=False):
        if not isinstance(to_pil, bool):
            raise TypeError("Argument to_pil with value %s is not of type [<class 'bool'>]." % (to_pil,))
        self.to_pil = to_pil

    def __call__(self, data):
        img = decode_pil("Decode", data)
        return img if self.to_pil else np.asarray(img, np.uint8).copy()


class RandomCropDecodeResize:
    """Decode, then RandomResizedCrop's random region resized to size."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self.size = _size_pair("RandomCropDecodeResize", size)
        self.scale, self.ratio, self.max_attempts = _check_scale_ratio(scale, ratio, max_attempts)
        self._resize = Resize(_hw(self.size), interpolation)

    def __call__(self, data):
        img = np.asarray(decode_pil("RandomCropDecodeResize", data), np.uint8)
        top, left, ch, cw = crop_box(img.shape[0], img.shape[1], self.scale, self.ratio, self.max_attempts)
        return self._resize._apply(img[top:top + ch, left:left + cw])


def _numpy_type(data_type):
    """A NumPy dtype, or a mindspore dtype's NumPy type (all of them, float16 included)."""
    if isinstance(data_type, type) and issubclass(data_type, np.generic) or isinstance(data_type, np.dtype):
        return np.dtype(data_type)
    try:
        return np.dtype(mindspore.dtype_to_nptype(data_type))
    except Exception:  # dtype_to_nptype names no type it does not know
        raise TypeError("Argument data_type with value %s is not of type [<class 'mindspore._c_expression.typing"
                        ".Type'>, <class 'numpy.dtype'>], but got %s." % (data_type, type(data_type))) from None


class ToType(_PyTransform):
    """The image converted to data_type (a NumPy or mindspore dtype)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._numpy_type = _numpy_type(data_type)

    def _apply(self, img):
        return img.astype(self._numpy_type)


class ToPIL:
    """An <H, W> or <H, W, C> uint8 array to a PIL image (PIL images pass through)."""

    def __call__(self, img):
        image_module = _pil_image()
        if isinstance(img, image_module.Image):
            return img
        array = _image("ToPIL", img)
        if array.ndim == 3 and array.shape[2] == 1:
            array = array[:, :, 0]
        if array.dtype != np.uint8:
            array = _as_type_of(array.astype(np.float64), np.zeros(0, np.uint8))
        return image_module.fromarray(np.ascontiguousarray(array))


class NormalizePad(_PyTransform):
    """Normalize, then one channel of zeros appended (HWC: last axis; CHW: first), in dtype
    ("float32" or "float16")."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        self._normalize = Normalize(mean, std, is_hwc)
        if dtype not in ("float32", "float16"):
            raise ValueError("dtype only supports float32 or float16, but got %s." % (dtype,))
        self.mean, self.std, self.dtype, self.is_hwc = mean, std, dtype, is_hwc

    def _apply(self, img):
        img = _image("NormalizePad", img)
        if img.ndim != 3:
            raise RuntimeError("NormalizePad: the image must be <H, W, C>, but got shape %s." % (img.shape,))
        out = self._normalize._apply(img)
        axis = 2 if self.is_hwc else 0
        zeros = np.zeros(tuple(1 if a == axis else n for a, n in enumerate(out.shape)), out.dtype)
        return np.concatenate([out, zeros], axis).astype(self.dtype)


# OpenCV's getGaussianKernel uses these binomial kernels when the sigma is derived from a small size.
_SMALL_KERNELS = {1: [1.0], 3: [0.25, 0.5, 0.25], 5: [0.0625, 0.25, 0.375, 0.25, 0.0625],
                  7: [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125]}


class LinearTransformation(_PyTransform):
    """(flattened <C, H, W> image - mean_vector) @ transformation_matrix, reshaped back
    (a whitening transform)."""

    def __init__(self, transformation_matrix, mean_vector):
        matrix, mean = np.asarray(transformation_matrix), np.asarray(mean_vector)
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError("transformation_matrix should be a square matrix. Got shape %s instead."
                             % (matrix.shape,))
        if mean.ndim != 1 or mean.shape[0] != matrix.shape[0]:
            raise ValueError("mean_vector length %d should match either one dimension of the square "
                             "transformation_matrix %s." % (mean.size, matrix.shape))
        self.transformation_matrix, self.mean_vector = matrix, mean

    def _apply(self, img):
        if img.size != self.mean_vector.size:
            raise RuntimeError("LinearTransformation: the image has %d values but the matrix is %s."
                               % (img.size, self.transformation_matrix.shape))
        flat = img.reshape(1, -1) - self.mean_vector
        return (flat @ self.transformation_matrix).reshape(img.shape).astype(
            img.dtype if img.dtype.kind == "f" else np.float64)


def _gaussian_kernel(size, sigma):
    if sigma is None and size in _SMALL_KERNELS:
        return np.asarray(_SMALL_KERNELS[size])
    if sigma is None:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    x = np.arange(size) - (size - 1) / 2.0
    k = np.exp(-x * x / (2.0 * sigma * sigma))
    return k / k.sum()


class GaussianBlur(_PyTransform):
    """Blurs with a Gaussian kernel_size (odd int or (x, y)); sigma None derives it from the size as
    OpenCV does; borders reflect (OpenCV's BORDER_REFLECT_101)."""

    def __init__(self, kernel_size, sigma=None):
        sizes = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
        if len(sizes) != 2 or not all(isinstance(k, numbers.Integral) and not isinstance(k, bool) for k in sizes):
            raise TypeError("Argument kernel_size with value %s is not of type [<class 'int'>, <class 'list'>, "
                            "<class 'tuple'>]." % (kernel_size,))
        if any(k <= 0 or k % 2 == 0 for k in sizes):
            raise ValueError("Input kernel_size is not an odd value.")
        if sigma is None:
            sigmas = (None, None)
        else:
            sigmas = sigma if isinstance(sigma, (tuple, list)) else (sigma, sigma)
            if len(sigmas) != 2 or any(isinstance(s, bool) or not isinstance(s, numbers.Number) for s in sigmas):
                raise TypeError("Argument sigma with value %s is not of type [<class 'numbers.Number'>, "
                                "<class 'list'>, <class 'tuple'>]." % (sigma,))
            if any(s <= 0 for s in sigmas):
                raise ValueError("Input sigma is not within the required interval of (0, 16777216].")
        self.kernel_size = tuple(int(k) for k in sizes)
        self.sigma = tuple(None if s is None else float(s) for s in sigmas)

    def _apply(self, img):
        img = _image("GaussianBlur", img)
        f = img.astype(np.float64)
        for axis, size, sigma in ((1, self.kernel_size[0], self.sigma[0]), (0, self.kernel_size[1], self.sigma[1])):
            k = _gaussian_kernel(size, sigma)
            r = size // 2
            if f.shape[axis] > 1:
                widths = [(0, 0)] * f.ndim
                widths[axis] = (r, r)
                padded = np.pad(f, widths, mode="reflect" if f.shape[axis] > r else "symmetric")
            else:
                padded = np.repeat(f, size, axis)
            n = f.shape[axis]
            f = sum(k[i] * np.take(padded, np.arange(i, i + n), axis) for i in range(size))
        return _as_type_of(f, img)


for _name in ("Decode", "RandomCropDecodeResize", "ToType", "ToPIL", "NormalizePad", "GaussianBlur",
              "LinearTransformation"):
    setattr(_vision, _name, globals()[_name])
