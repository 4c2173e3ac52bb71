"""The image data sets of mindspore.dataset read from their files: Cifar10Dataset and
Cifar100Dataset (the binary versions: one label byte, or coarse and fine label bytes, then the
3 x 32 x 32 image, per record), FashionMnistDataset (MNIST's IDX files) and ImageFolderDataset
(one folder per class). The CIFAR files are read whole into columns that the C++ table serves;
ImageFolderDataset reads each file when its row is asked for. All take MindSpore's shuffle,
num_samples, sampler and num_shards / shard_id."""
import os

import numpy as np

import mindspore.dataset as _ds
from mindspore.dataset._vision_convert import decode_pil

_CIFAR_SIDE = 32
_CIFAR_PIXELS = 3 * _CIFAR_SIDE * _CIFAR_SIDE


def _check_usage(who, usage):
    usage = "all" if usage is None else usage
    if usage not in ("train", "test", "all"):
        raise ValueError("Input usage is not within the valid set of ['train', 'test', 'all'].")
    return usage


def _check_dir(directory):
    if not isinstance(directory, str):
        raise TypeError("Argument dataset_dir with value %s is not of type [<class 'str'>]." % (directory,))
    if not os.path.isdir(directory):
        raise ValueError("The folder %s does not exist or is not a directory or permission denied!" % directory)
    return directory


def _check_cache(who, cache):
    if cache is not None:
        raise ValueError("%s: cache (a dataset cache server) is not supported by gradstep; pass cache=None." % who)


def _cifar_files(who, directory, usage, train_prefix, test_prefix):
    names = sorted(n for n in os.listdir(directory) if n.endswith(".bin"))
    wanted = []
    if usage in ("train", "all"):
        wanted += [n for n in names if n.startswith(train_prefix)]
    if usage in ("test", "all"):
        wanted += [n for n in names if n.startswith(test_prefix)]
    if not wanted:
        looked = {"train": train_prefix + "*.bin", "test": test_prefix + "*.bin",
                  "all": train_prefix + "*.bin and " + test_prefix + "*.bin"}[usage]
        raise RuntimeError("%s: Invalid file, no data file found under %s for usage '%s' (looked for %s)."
                           % (who, directory, usage, looked))
    return [os.path.join(directory, n) for n in wanted]


def _read_cifar(who, files, label_bytes):
    record = label_bytes + _CIFAR_PIXELS
    chunks = []
    for path in files:
        raw = np.fromfile(path, np.uint8)
        if raw.size == 0 or raw.size % record:
            raise RuntimeError("%s: Invalid file, %s has %d bytes, which is not a whole number of %d-byte records "
                               "(%d label byte(s) and a 3x32x32 image)." % (who, path, raw.size, record, label_bytes))
        chunks.append(raw.reshape(-1, record))
    table = np.concatenate(chunks)
    images = table[:, label_bytes:].reshape(-1, 3, _CIFAR_SIDE, _CIFAR_SIDE).transpose(0, 2, 3, 1)
    labels = [table[:, i].astype(np.uint32) for i in range(label_bytes)]
    return np.ascontiguousarray(images), labels


class Cifar10Dataset(_ds.NumpySlicesDataset):
    """Columns image (uint8, 32 x 32 x 3) and label (uint32) from CIFAR-10's data_batch_*.bin
    (usage 'train') and test_batch.bin ('test') in dataset_dir."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = _check_usage("Cifar10Dataset", usage)
        _check_cache("Cifar10Dataset", cache)
        files = _cifar_files("Cifar10Dataset", _check_dir(dataset_dir), usage, "data_batch", "test_batch")
        images, (labels,) = _read_cifar("Cifar10Dataset", files, 1)
        super().__init__({"image": images, "label": labels}, num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)


class Cifar100Dataset(_ds.NumpySlicesDataset):
    """Columns image (uint8, 32 x 32 x 3), coarse_label and fine_label (uint32) from CIFAR-100's
    train.bin / test.bin in dataset_dir."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        usage = _check_usage("Cifar100Dataset", usage)
        _check_cache("Cifar100Dataset", cache)
        files = _cifar_files("Cifar100Dataset", _check_dir(dataset_dir), usage, "train", "test")
        images, (coarse, fine) = _read_cifar("Cifar100Dataset", files, 2)
        super().__init__({"image": images, "coarse_label": coarse, "fine_label": fine}, num_samples=num_samples,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id)


class FashionMnistDataset(_ds.MnistDataset):
    """Columns image (uint8, 28 x 28 x 1) and label (uint32) from Fashion-MNIST's IDX files
    (named as MNIST's) in dataset_dir."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        _check_cache("FashionMnistDataset", cache)
        try:
            super().__init__(dataset_dir, usage=usage, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                             num_shards=num_shards, shard_id=shard_id)
        except ValueError as e:
            raise ValueError(str(e).replace("MnistDataset", "FashionMnistDataset")) from None


class _FolderImages:
    """ImageFolderDataset's rows: (the file's bytes, or its decoded image, label)."""

    def __init__(self, files, decode):
        self.files, self.decode = files, decode

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        path, label = self.files[index]
        data = np.fromfile(path, np.uint8)
        if self.decode:
            data = np.asarray(decode_pil("ImageFolderDataset: %s" % path, data), np.uint8)
        return data, np.array(label, np.int32)


def _folder_files(directory, extensions, class_indexing):
    classes = sorted(d for d in os.listdir(directory) if os.path.isdir(os.path.join(directory, d)))
    if class_indexing is None:
        class_indexing = {name: i for i, name in enumerate(classes)}
    else:
        pairs = class_indexing.items() if isinstance(class_indexing, dict) else None
        if pairs is None or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                    for k, v in pairs):
            raise TypeError("Argument class_indexing with value %s is not of type [<class 'dict'>] of str to int."
                            % (class_indexing,))
        if any(v < 0 for v in class_indexing.values()):
            raise ValueError("class_indexing: the class indices must be 0 or more.")
        classes = [c for c in classes if c in class_indexing]
    exts = None if extensions is None else tuple(e.lower() for e in extensions)
    files = []
    for name in classes:
        folder = os.path.join(directory, name)
        for f in sorted(os.listdir(folder)):
            path = os.path.join(folder, f)
            if os.path.isfile(path) and (exts is None or f.lower().endswith(exts)):
                files.append((path, class_indexing[name]))
    return files, dict(class_indexing)


class ImageFolderDataset(_ds.GeneratorDataset):
    """Columns image and label (int32) from dataset_dir/<class>/<file>: the image is the file's
    bytes (uint8, 1-D), or the decoded <H, W, 3> uint8 image with decode=True. Classes are the
    sorted folder names, numbered from 0, unless class_indexing maps them; extensions keeps the
    files with those endings (case-insensitive)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        _check_cache("ImageFolderDataset", cache)
        if decrypt is not None:
            raise ValueError("ImageFolderDataset: decrypt is not supported by gradstep; pass decrypt=None.")
        if not isinstance(decode, bool):
            raise TypeError("Argument decode with value %s is not of type [<class 'bool'>]." % (decode,))
        if extensions is not None and (not isinstance(extensions, (list, tuple))
                                       or not all(isinstance(e, str) for e in extensions)):
            raise TypeError("Argument extensions with value %s is not of type [<class 'list'>] of str." % (extensions,))
        files, self._class_indexing = _folder_files(_check_dir(dataset_dir), extensions, class_indexing)
        if not files:
            raise RuntimeError("ImageFolderDataset: Invalid data, no valid data matching the dataset API "
                               "ImageFolderDataset. Please check dataset API or file path: %s." % dataset_dir)
        super().__init__(_FolderImages(files, decode), column_names=["image", "label"], num_samples=num_samples,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id)

    def get_class_indexing(self):
        """{class folder name: label}."""
        return dict(self._class_indexing)


for _name in ("Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset"):
    setattr(_ds, _name, globals()[_name])
