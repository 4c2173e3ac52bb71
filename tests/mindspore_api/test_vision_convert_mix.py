"""Decode (PNG bytes back to the pixels), RandomCropDecodeResize, ToType, ToPIL, NormalizePad and
GaussianBlur against NumPy; RandomErasing, CutOut, MixUpBatch and CutMixBatch (shapes, dtypes,
label mass); AutoAugment, RandAugment, TrivialAugmentWide and UniformAugment repeat under a seed;
a map pipeline through Decode and the augmentations."""
import io
import sys

import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.vision as V
from mindspore import dtype as mstype

from _check import raises

rng = np.random.RandomState(2)
img = rng.randint(0, 256, (16, 20, 3)).astype(np.uint8)

try:
    from PIL import Image
except ImportError:
    Image = None
if Image is not None:
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "PNG")
    png = np.frombuffer(buf.getvalue(), np.uint8)
    assert np.array_equal(V.Decode()(png), img) and isinstance(V.Decode(to_pil=True)(png), Image.Image)
    raises(RuntimeError, V.Decode(), np.arange(20, dtype=np.uint8), match="Decode image failed")
    assert V.RandomCropDecodeResize((8, 6))(png).shape == (8, 6, 3)
    smooth = np.repeat(np.linspace(0, 255, 20)[None, :, None], 16, 0).repeat(3, 2).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(smooth).save(buf, "JPEG", quality=95)
    jpeg = V.Decode()(np.frombuffer(buf.getvalue(), np.uint8))
    assert jpeg.shape == (16, 20, 3) and jpeg.dtype == np.uint8 and np.abs(jpeg.astype(int) - smooth).mean() < 3
    assert np.array_equal(np.asarray(V.ToPIL()(img)), img)
    data = ds.NumpySlicesDataset({"image": [png, png], "label": [0, 1]}, shuffle=False)
    data = data.map([V.Decode(), V.RandomResizedCrop(8), V.TrivialAugmentWide(), V.HWC2CHW()], "image").batch(2)
    batch = next(data.create_dict_iterator(output_numpy=True))
    assert batch["image"].shape == (2, 3, 8, 8) and batch["image"].dtype == np.uint8
raises(TypeError, V.Decode(), np.zeros((2, 2), np.float32), match="1-D uint8")
# Without PIL, Decode names the Debian package it needs.
saved = {name: module for name, module in sys.modules.items() if name == "PIL" or name.startswith("PIL.")}
sys.modules["PIL"] = None
try:
    raises(RuntimeError, V.Decode(), np.zeros(8, np.uint8), match="python3-pil")
finally:
    del sys.modules["PIL"]
    sys.modules.update(saved)

assert V.ToType(np.float16)(img).dtype == np.float16 and V.ToType(mstype.int32)(img).dtype == np.int32
assert V.ToType(mstype.float16)(img).dtype == np.float16
raises(TypeError, V.ToType, 5, match="data_type")
padded = V.NormalizePad([10.0, 20.0, 30.0], [2.0, 4.0, 5.0])(img)
assert padded.shape == (16, 20, 4) and padded.dtype == np.float32 and np.all(padded[..., 3] == 0)
assert np.allclose(padded[..., :3], (img - np.array([10.0, 20.0, 30.0])) / np.array([2.0, 4.0, 5.0]), atol=1e-5)
chw = V.NormalizePad([0.0] * 3, [1.0] * 3, "float16", is_hwc=False)(img.transpose(2, 0, 1))
assert chw.shape == (4, 16, 20) and chw.dtype == np.float16
raises(ValueError, V.NormalizePad, [0.0], [1.0], "int8", match="float32 or float16")

# GaussianBlur: separable kernel, borders reflected (OpenCV's BORDER_REFLECT_101).
x = np.arange(3.0) - 1
k = np.exp(-x * x / 2.0)
k /= k.sum()
p = np.pad(img.astype(np.float64), ((1, 1), (1, 1), (0, 0)), mode="reflect")
expected = sum(k[i] * k[j] * p[i:i + 16, j:j + 20] for i in range(3) for j in range(3))
assert np.allclose(V.GaussianBlur(3, 1.0)(img.astype(np.float32)), expected, atol=1e-4)
flat = np.full((5, 5, 1), 7, np.uint8)
assert np.array_equal(V.GaussianBlur((3, 5))(flat), flat)
raises(ValueError, V.GaussianBlur, 4, match="odd")

chw_img = img.transpose(2, 0, 1).astype(np.float32)
erased = V.RandomErasing(prob=1.0, value=(1, 2, 3))(chw_img)
changed = np.any(erased != chw_img, axis=0)
assert erased.shape == chw_img.shape and changed.any() and np.all(erased[:, changed] == [[1], [2], [3]])
assert np.array_equal(V.RandomErasing(prob=0.0)(chw_img), chw_img)
cut = V.CutOut(4, num_patches=2)(img)
assert cut.shape == img.shape and np.all(cut[np.all(cut != img, -1)] == 0) and np.all(cut == 0, -1).sum() >= 16

erased = V.Erase(1, 2, 3, 4, value=(7, 8, 9))(img)
assert np.all(erased[1:4, 2:6] == [7, 8, 9]) and np.array_equal(erased[4:], img[4:]) and erased.dtype == np.uint8
small = rng.rand(1, 2, 2)
matrix = rng.rand(4, 4)
mean = rng.rand(4)
whitened = ((small.reshape(1, -1) - mean) @ matrix).reshape(1, 2, 2)
assert np.allclose(V.LinearTransformation(matrix, mean)(small), whitened)
raises(ValueError, V.LinearTransformation, np.eye(3), np.zeros(2), match="mean_vector")

images = rng.randint(0, 256, (4, 8, 8, 3)).astype(np.uint8)
labels = np.eye(4, dtype=np.float32)
mixed, mixed_labels = V.MixUpBatch(0.5)(images, labels)
assert mixed.shape == images.shape and mixed.dtype == np.uint8 and mixed_labels.dtype == np.float32
assert np.allclose(mixed_labels.sum(1), 1.0)
cm_images, cm_labels = V.CutMixBatch(V.ImageBatchFormat.NCHW)(images.transpose(0, 3, 1, 2), labels)
assert cm_images.shape == (4, 3, 8, 8) and np.allclose(cm_labels.sum(1), 1.0)
raises(RuntimeError, V.MixUpBatch(), images[0], labels, match="batch")

augments = [V.AutoAugment(), V.RandAugment(), V.RandAugment(3, 20, interpolation=V.Inter.BILINEAR),
            V.TrivialAugmentWide(), V.UniformAugment([V.Invert(), V.Equalize(), V.HorizontalFlip()], 2)]
ds.config.set_seed(11)
first = [a(img) for a in augments for _ in range(4)]
ds.config.set_seed(11)
again = [a(img) for a in augments for _ in range(4)]
assert all(f.shape == img.shape and f.dtype == np.uint8 and np.array_equal(f, g) for f, g in zip(first, again))
assert sum(not np.array_equal(f, img) for f in first) >= 10
raises(ValueError, V.AutoAugment, V.AutoAugmentPolicy.CIFAR10, match="ImageNet policy only")
raises(ValueError, V.RandAugment, 2, 31, match="magnitude")
raises(ValueError, V.UniformAugment, [V.Invert()], 2, match="num_ops")
print("test_vision_convert_mix: ok")
