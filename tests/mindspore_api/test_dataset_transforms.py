"""Python data transforms: Resize (bilinear with half-pixel centres, nearest, area, bicubic), Normalize,
CenterCrop, RandomCrop, flips, ToTensor, Pad, OneHot, Compose, RandomApply / RandomChoice, in
Dataset.map and called directly; the c_transforms / py_transforms module paths."""
import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.transforms as T
import mindspore.dataset.vision as V
import mindspore.dataset.vision.c_transforms as CV
from mindspore.dataset.transforms.c_transforms import OneHot, TypeCast
from mindspore.dataset.vision import Border, Inter

from _check import raises

assert CV.Resize is V.Resize and OneHot is T.OneHot

row = np.array([[0, 2, 4, 6]], np.float32)
assert np.allclose(V.Resize((1, 2))(row), [[1, 5]])
assert np.allclose(V.Resize((1, 8))(row)[0, :3], [0, 0.5, 1.5])
img = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
assert V.Resize(2)(img).shape == (2, 3, 3) and V.Resize(2)(img).dtype == np.uint8
assert np.array_equal(V.Resize((4, 6))(img), img)
near = V.Resize((8, 12), Inter.NEAREST)(img)
assert np.array_equal(near[::2, ::2], img)
# AREA shrinking by 2 is the mean of each 2 x 2 block; BICUBIC at the same size keeps the image.
blocks = np.arange(4 * 4 * 2, dtype=np.float32).reshape(4, 4, 2)
assert np.allclose(V.Resize((2, 2), Inter.AREA)(blocks), blocks.reshape(2, 2, 2, 2, 2).mean(axis=(1, 3)))
assert np.array_equal(V.Resize((4, 6), Inter.BICUBIC)(img), img)
assert V.Resize((7, 9), Inter.BICUBIC)(img).shape == (7, 9, 3)
raises(TypeError, V.Resize, (2, 2), "bilinear", match="Inter")
raises(ValueError, V.Resize, 0, match="within the required interval")

norm = V.Normalize([1.0, 2.0, 3.0], [2.0, 2.0, 4.0])(img)
assert norm.dtype == np.float32 and np.allclose(norm, (img - np.array([1, 2, 3])) / np.array([2, 2, 4]))
chw = np.transpose(img, (2, 0, 1))
assert np.allclose(V.Normalize([1.0, 2.0, 3.0], [2.0, 2.0, 4.0], is_hwc=False)(chw), np.transpose(norm, (2, 0, 1)))
raises(ValueError, V.Normalize, [0.5], [0.0], match="std")

assert np.array_equal(V.CenterCrop((2, 4))(img), img[1:3, 1:5])
assert V.CenterCrop(6)(img).shape == (6, 6, 3)
np.random.seed(0)
crops = {V.RandomCrop(3)(img)[0, 0, 0] for _ in range(40)}
assert len(crops) > 1 and crops <= set(img[:2, :4, 0].ravel())
padded = V.RandomCrop(6, padding=1)(np.ones((4, 4, 1), np.uint8))
assert padded.shape == (6, 6, 1) and padded.sum() == 16
assert np.array_equal(V.Pad((1, 2), fill_value=7)(img)[:2, :, 0], np.full((2, 8), 7))
assert np.array_equal(V.Pad(1, padding_mode=Border.EDGE)(img)[0, 1:-1], img[0])

assert np.array_equal(V.RandomHorizontalFlip(1.0)(img), img[:, ::-1])
assert np.array_equal(V.RandomVerticalFlip(0.0)(img), img)
raises(ValueError, V.RandomHorizontalFlip, 2.0, match="within the required interval")
t = V.ToTensor()(img)
assert t.shape == (3, 4, 6) and t.dtype == np.float32 and np.isclose(t.max(), img.max() / 255.0)

assert np.array_equal(OneHot(3)(np.array([0, 2])), [[1, 0, 0], [0, 0, 1]])
assert np.allclose(OneHot(2, smoothing_rate=0.2)(np.array(1)), [0.1, 0.9])
raises(RuntimeError, OneHot(2), np.array([3]))
assert np.allclose(T.Compose([lambda a: a + 1, lambda a: a * 2])(np.array([1.0])), [4.0])
assert np.allclose(T.RandomApply([lambda a: a + 1], prob=1.0)(np.array([1.0])), [2.0])
assert T.RandomChoice([lambda a: a * 0])(np.array([5]))[0] == 0
raises(ValueError, T.Compose, [], match="transforms list can not be empty.")
raises(TypeError, T.RandomApply, (lambda a: a,), match="Argument transforms list with value")
raises(TypeError, T.RandomChoice, [1], match="transforms[0] is neither a transforms op (TensorOperation) nor a callable")
raises(ValueError, T.RandomApply, [lambda a: a], 1.5, match="Input prob is not within the required interval of [0, 1].")

# In a pipeline: images resized, flipped, normalized and transposed; labels one-hot.
ds.config.set_seed(3)
data = ds.NumpySlicesDataset({"image": np.stack([img] * 4), "label": np.arange(4, dtype=np.int32)},
                             shuffle=False)
data = data.map([V.Resize((8, 8)), V.RandomHorizontalFlip(), V.Normalize([0.5] * 3, [0.2] * 3), V.HWC2CHW()],
                input_columns="image")
data = data.map(T.Compose([OneHot(4), TypeCast(np.float32)]), input_columns="label").batch(2)
batches = list(data.create_dict_iterator(output_numpy=True))
assert len(batches) == 2 and batches[0]["image"].shape == (2, 3, 8, 8) and batches[0]["image"].dtype == np.float32
assert np.array_equal(batches[1]["label"], np.eye(4, dtype=np.float32)[2:])
ds.config.set_seed(3)
a = np.random.random()
ds.config.set_seed(3)
assert np.random.random() == a
print("test_dataset_transforms: ok")
