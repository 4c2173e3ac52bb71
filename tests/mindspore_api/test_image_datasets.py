"""Cifar10Dataset, Cifar100Dataset, FashionMnistDataset and ImageFolderDataset over tiny files of
their formats written here byte by byte: pixels, labels and dtypes read back, usage, shuffle,
num_samples, shards and samplers, class folders with decode, class_indexing and extensions."""
import io
import os
import shutil
import struct
import tempfile

import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.vision as V

from _check import raises

rng = np.random.RandomState(4)
root = tempfile.mkdtemp(prefix="image_datasets_")


def rows(dataset):
    return list(dataset.create_dict_iterator(output_numpy=True))


try:
    # CIFAR-10: one label byte and a 3 x 32 x 32 (CHW) image per record.
    cifar10 = os.path.join(root, "cifar10")
    os.makedirs(cifar10)
    images = rng.randint(0, 256, (7, 3, 32, 32)).astype(np.uint8)
    labels = [3, 1, 4, 1, 5, 9, 2]
    for name, picked in (("data_batch_1.bin", range(0, 3)), ("data_batch_2.bin", range(3, 5)),
                         ("test_batch.bin", range(5, 7))):
        with open(os.path.join(cifar10, name), "wb") as f:
            for i in picked:
                f.write(bytes([labels[i]]) + images[i].tobytes())
    train = rows(ds.Cifar10Dataset(cifar10, usage="train", shuffle=False))
    assert len(train) == 5 and train[4]["image"].shape == (32, 32, 3) and train[4]["image"].dtype == np.uint8
    assert all(np.array_equal(r["image"], images[i].transpose(1, 2, 0)) for i, r in enumerate(train))
    assert [int(r["label"]) for r in train] == labels[:5] and train[0]["label"].dtype == np.uint32
    assert ds.Cifar10Dataset(cifar10, usage="test").get_dataset_size() == 2
    assert ds.Cifar10Dataset(cifar10).get_dataset_size() == 7
    assert ds.Cifar10Dataset(cifar10, num_samples=3).get_dataset_size() == 3
    shards = [[int(r["label"]) for r in rows(ds.Cifar10Dataset(cifar10, "train", shuffle=False, num_shards=2,
                                                                shard_id=k))] for k in range(2)]
    assert shards == [[3, 4, 5], [1, 1, 3]]
    picked = rows(ds.Cifar10Dataset(cifar10, "test", sampler=ds.SubsetSampler([1, 0])))
    assert [int(r["label"]) for r in picked] == [2, 9]
    ds.config.set_seed(1)
    first = [int(r["label"]) for r in rows(ds.Cifar10Dataset(cifar10, shuffle=True))]
    ds.config.set_seed(1)
    assert first == [int(r["label"]) for r in rows(ds.Cifar10Dataset(cifar10, shuffle=True))]
    assert sorted(first) == sorted(labels)
    raises(ValueError, ds.Cifar10Dataset, cifar10, usage="valid", match="usage")
    raises(ValueError, ds.Cifar10Dataset, os.path.join(root, "nowhere"), match="does not exist")
    with open(os.path.join(cifar10, "data_batch_3.bin"), "wb") as f:
        f.write(b"\x01" * 100)
    raises(RuntimeError, ds.Cifar10Dataset, cifar10, match="data_batch_3.bin has 100 bytes")

    # CIFAR-100: coarse and fine label bytes, then the image.
    cifar100 = os.path.join(root, "cifar100")
    os.makedirs(cifar100)
    with open(os.path.join(cifar100, "train.bin"), "wb") as f:
        for i in range(3):
            f.write(bytes([i, 10 + i]) + images[i].tobytes())
    c100 = rows(ds.Cifar100Dataset(cifar100, usage="train", shuffle=False))
    assert list(c100[0]) == ["image", "coarse_label", "fine_label"]
    assert [(int(r["coarse_label"]), int(r["fine_label"])) for r in c100] == [(0, 10), (1, 11), (2, 12)]
    assert np.array_equal(c100[2]["image"], images[2].transpose(1, 2, 0))
    raises(RuntimeError, ds.Cifar100Dataset, cifar100, usage="test", match="no data file found under %s for usage 'test' (looked for test*.bin)" % cifar100)

    # Fashion-MNIST: MNIST's IDX files (big-endian magic and sizes).
    fashion = os.path.join(root, "fashion")
    os.makedirs(fashion)
    pixels = rng.randint(0, 256, (4, 28, 28)).astype(np.uint8)
    with open(os.path.join(fashion, "train-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">iiii", 0x803, 4, 28, 28) + pixels.tobytes())
    with open(os.path.join(fashion, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">ii", 0x801, 4) + bytes([7, 0, 9, 2]))
    fm = rows(ds.FashionMnistDataset(fashion, usage="train", shuffle=False))
    assert [int(r["label"]) for r in fm] == [7, 0, 9, 2] and fm[1]["image"].shape == (28, 28, 1)
    assert np.array_equal(fm[3]["image"][..., 0], pixels[3])
    raises(ValueError, ds.FashionMnistDataset, fashion, usage="test", match="FashionMnistDataset")

    # ImageFolderDataset: class folders, raw bytes or decoded images.
    folder = os.path.join(root, "folder")
    pictures = {}
    for cls in ("cat", "dog", "eel"):
        os.makedirs(os.path.join(folder, cls))
        for k in range(2):
            pictures[(cls, k)] = rng.randint(0, 256, (5, 6, 3)).astype(np.uint8)
    with open(os.path.join(folder, "eel", "notes.txt"), "w") as f:
        f.write("not an image")
    try:
        from PIL import Image
    except ImportError:
        Image = None
    if Image is not None:
        for (cls, k), pic in pictures.items():
            Image.fromarray(pic).save(os.path.join(folder, cls, "%d.png" % k))
        decoded = ds.ImageFolderDataset(folder, shuffle=False, decode=True, extensions=[".PNG"])
        got = rows(decoded)
        assert len(got) == 6 and [int(r["label"]) for r in got] == [0, 0, 1, 1, 2, 2]
        assert got[0]["label"].dtype == np.int32 and np.array_equal(got[3]["image"], pictures[("dog", 1)])
        assert decoded.get_class_indexing() == {"cat": 0, "dog": 1, "eel": 2}
        raw = ds.ImageFolderDataset(folder, shuffle=False, class_indexing={"dog": 7, "cat": 3}, extensions=[".png"])
        got = rows(raw.map(V.Decode(), "image"))
        assert [int(r["label"]) for r in got] == [3, 3, 7, 7] and np.array_equal(got[0]["image"], pictures[("cat", 0)])
        first = rows(ds.ImageFolderDataset(folder, extensions=[".png"], sampler=ds.SequentialSampler(1, 2)))
        assert first[0]["image"].ndim == 1 and first[0]["image"].dtype == np.uint8
        assert [int(r["label"]) for r in first] == [0, 1]
        assert ds.ImageFolderDataset(folder, num_shards=3, shard_id=2).get_dataset_size() == 3
        assert len(rows(ds.ImageFolderDataset(folder, shuffle=False))) == 7
        raises(RuntimeError, rows, ds.ImageFolderDataset(folder, shuffle=False, decode=True), match="notes.txt")
    raises(RuntimeError, ds.ImageFolderDataset, folder, extensions=[".jpg"], match="no valid data")
finally:
    shutil.rmtree(root)
print("test_image_datasets: ok")
