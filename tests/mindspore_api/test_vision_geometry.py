"""Geometric vision transforms against direct NumPy results: Crop, flips, Rotate by 90 (with and
without expand), Affine translation and rotation, Perspective, SlicePatches, ResizedCrop, FiveCrop /
TenCrop, PadToSize; shapes, dtypes and seeds of the random ones (RandomRotation, RandomAffine,
RandomPerspective, RandomResizedCrop, RandomResize)."""
import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.vision as V
from mindspore.dataset.vision import Inter, SliceMode

from _check import raises

img = np.arange(5 * 5 * 3, dtype=np.uint8).reshape(5, 5, 3)
wide = np.arange(4 * 6, dtype=np.uint8).reshape(4, 6)

assert np.array_equal(V.Crop((1, 2), (2, 3))(wide), wide[1:3, 2:5])
raises(RuntimeError, V.Crop((3, 0), 2), wide, match="Crop")
assert np.array_equal(V.HorizontalFlip()(img), img[:, ::-1]) and np.array_equal(V.VerticalFlip()(img), img[::-1])

# Rotate: degrees counter-clockwise about the centre, as np.rot90.
assert np.array_equal(V.Rotate(90)(img), np.rot90(img)) and np.array_equal(V.Rotate(-90)(img), np.rot90(img, -1))
expanded = V.Rotate(90, expand=True)(wide)
assert expanded.shape == (6, 4) and np.array_equal(expanded, np.rot90(wide))
assert np.array_equal(V.Rotate(180, Inter.BILINEAR)(img), img[::-1, ::-1])
assert V.Rotate(30, fill_value=255)(wide)[0, 0] == 255
raises(ValueError, V.Rotate, 10, fill_value=256, match="fill_value")
raises(TypeError, V.Rotate, 10, resample="nearest", match="Inter")

# Affine: a translation by one pixel moves the columns; a clockwise 90 degrees is np.rot90(-1).
assert np.array_equal(V.Affine(0, (1, 0), 1.0, 0)(wide)[:, 1:], wide[:, :-1])
assert np.array_equal(V.Affine(90, (0, 0), 1.0, 0)(img), np.rot90(img, -1))
raises(ValueError, V.Affine, 0, (0, 0), 0.0, 0, match="scale")

corners = [[0, 0], [5, 0], [5, 3], [0, 3]]
assert np.array_equal(V.Perspective(corners, corners, Inter.NEAREST)(wide), wide)
shifted = V.Perspective(corners, [[1, 0], [6, 0], [6, 3], [1, 3]], Inter.NEAREST)(wide)
assert np.array_equal(shifted[:, 1:], wide[:, :-1]) and np.all(shifted[:, 0] == 0)

raises(ValueError, V.Perspective, corners, [[0, 0], [0, 0], [5, 3], [0, 3]], match="do not define")
assert np.array_equal(V.RandomPerspective(prob=1.0)(img[:1, :1]), img[:1, :1])
raises(RuntimeError, V.Rotate(10), np.zeros((0, 4, 3), np.uint8), match="empty")

patches = V.SlicePatches(2, 2)(wide)
assert len(patches) == 4 and patches[3].shape == (2, 3) and np.array_equal(patches[3], wide[2:, 3:])
odd = V.SlicePatches(1, 4, SliceMode.PAD, 9)(wide)
assert odd[3].shape == (4, 2) and np.all(odd[3][:, 1] == 9)
assert V.SlicePatches(1, 4, SliceMode.DROP)(wide)[3].shape == (4, 1)

assert np.array_equal(V.ResizedCrop(1, 2, 2, 3, (2, 3))(wide), wide[1:3, 2:5])
assert np.array_equal(V.ResizedCrop(0, 0, 4, 6, (2, 3), Inter.AREA)(wide.astype(np.float32)),
                      wide.reshape(2, 2, 3, 2).mean(axis=(1, 3)))
five = V.FiveCrop(2)(wide)
assert [c.tolist() for c in five[:4]] == [wide[:2, :2].tolist(), wide[:2, 4:].tolist(), wide[2:, :2].tolist(),
                                          wide[2:, 4:].tolist()] and np.array_equal(five[4], wide[1:3, 2:4])
ten = V.TenCrop((2, 3), use_vertical_flip=True)(wide)
assert len(ten) == 10 and np.array_equal(ten[5], wide[::-1][:2, :3])
padded = V.PadToSize((6, 9), fill_value=1)(wide)
assert padded.shape == (6, 9) and np.array_equal(padded[1:5, 1:7], wide) and padded[0, 0] == 1
assert np.array_equal(V.PadToSize((5, 6), offset=(1, 0))(wide)[1:], wide)
raises(ValueError, V.PadToSize((3, 6)), wide, match="smaller than the image")
assert {V.RandomResize((3, 4))(wide).shape for _ in range(8)} == {(3, 4)}

# Random ones: shapes, dtypes, and the same draws after the same seed.
rng = np.random.RandomState(0)
photo = rng.randint(0, 256, (12, 16, 3)).astype(np.uint8)
ops = [V.RandomRotation(30), V.RandomRotation((10, 20), Inter.BICUBIC, expand=True),
       V.RandomAffine(15, (-0.1, 0.1, -0.2, 0.2), (0.8, 1.2), 10), V.RandomPerspective(prob=1.0),
       V.RandomResizedCrop((6, 8)), V.RandomResizedCrop(5, scale=(0.5, 1.0), interpolation=Inter.NEAREST)]


def run_all():
    return [op(photo) for op in ops]


ds.config.set_seed(7)
first = run_all()
ds.config.set_seed(7)
again = run_all()
assert all(np.array_equal(a, b) for a, b in zip(first, again))
assert first[0].shape == photo.shape and first[0].dtype == np.uint8
assert first[1].shape[2] == 3 and first[1].shape[0] > 12 and first[1].shape[1] > 16
assert first[4].shape == (6, 8, 3) and first[5].shape == (5, 5, 3)
assert not np.array_equal(first[2], photo) and not np.array_equal(first[3], photo)
raises(ValueError, V.RandomResizedCrop, 4, scale=(1.0, 0.5), match="(min,max)")
raises(ValueError, V.RandomPerspective, 1.5, match="distortion_scale")
print("test_vision_geometry: ok")
