"""The samplers of mindspore.dataset, which every random-access source takes as sampler=.
DistributedSampler: the shard of a data set that one rank of a data-parallel run reads; the
sources read its settings (bind_dataset_sources.cpp): each shard gets ceil(rows / num_shards) rows,
shard k the rows k, k + num_shards, ... of the epoch's order. The others give each epoch's row
indices through _gradstep_indices(rows, seed), the seed being the epoch's shuffle seed from the
pipeline (mindspore.dataset.config.set_seed), so seeded runs repeat; _gradstep_size(rows) says how
many (core/data/sampler.h)."""
import numbers

import numpy as np

import mindspore.dataset as _ds


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("Argument {} with value {} is not of type [<class 'int'>], but got {}."
                        .format(name, value, type(value)))
    if value < low or value > high:
        raise ValueError("Input {} is not within the required interval of [{}, {}].".format(name, low, high))


class DistributedSampler:
    """DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=None, offset=-1)."""
    _gradstep_distributed = True

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        _check_int("num_shards", num_shards, 1, 2 ** 31 - 1)
        _check_int("shard_id", shard_id, 0, num_shards - 1)
        if not isinstance(shuffle, bool):
            raise TypeError("shuffle must be a boolean value but was: {}.".format(shuffle))
        if num_samples is not None:
            _check_int("num_samples", num_samples, 0, 2 ** 63 - 1)
        if offset != -1:
            raise ValueError("DistributedSampler: offset is not supported by gradstep (only -1).")
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.num_samples = num_samples
        self.offset = offset


    def get_num_samples(self):
        return self.num_samples


def _check_num_samples(num_samples):
    if num_samples is not None:
        if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral):
            raise TypeError("num_samples must be integer but was: {}.".format(num_samples))
        if num_samples < 0 or num_samples > 2 ** 63 - 1:
            raise ValueError("num_samples exceeds the boundary between 0 and 9223372036854775807(INT64_MAX)!")
    return num_samples


def _check_indices(indices):
    if not isinstance(indices, (list, tuple, np.ndarray)):
        raise TypeError("Unsupported sampler object of type ({})".format(type(indices)))
    out = []
    for i in indices:
        if isinstance(i, bool) or not isinstance(i, numbers.Integral):
            raise TypeError("SubsetSampler: Type of indices element must be int, but got list[{}]: {}, type: {}."
                            .format(len(out), i, type(i)))
        out.append(int(i))
    return out


def _capped(count, num_samples):
    return count if num_samples is None or num_samples == 0 else min(count, num_samples)


def _generator(seed):
    return np.random.RandomState(int(seed) % (2 ** 32))


class Sampler:
    """The base of samplers a script writes: __iter__ yields row indices (self.dataset_size is the
    source's row count when it runs); at most num_samples of them are read."""

    def __init__(self, num_samples=None):
        self.num_samples = _check_num_samples(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("Sampler.__iter__ must be defined by the subclass: it yields row indices.")

    def _gradstep_indices(self, rows, seed):
        self.dataset_size = rows
        out = []
        for i in iter(self):
            if self.num_samples and len(out) >= self.num_samples:
                break
            out.append(i)
        return out

    def get_num_samples(self):
        return self.num_samples


class SequentialSampler:
    """Rows in order from start_index (default 0), at most num_samples."""

    def __init__(self, start_index=None, num_samples=None):
        if start_index is not None and (isinstance(start_index, bool) or not isinstance(start_index, numbers.Integral)):
            raise TypeError("start_index must be integer but was: {}.".format(start_index))
        if start_index is not None and start_index < 0:
            raise ValueError("start_index should be a positive integer value or 0.")
        self.start_index = 0 if start_index is None else int(start_index)
        self.num_samples = _check_num_samples(num_samples)

    def _start(self, rows):
        if self.start_index >= rows and rows > 0:
            raise ValueError("SequentialSampler: start_index {} is out of bound, the dataset has {} rows."
                             .format(self.start_index, rows))
        return self.start_index

    def _gradstep_size(self, rows):
        return _capped(max(rows - self._start(rows), 0), self.num_samples)

    def _gradstep_indices(self, rows, seed):
        start = self._start(rows)
        return list(range(start, start + self._gradstep_size(rows)))

    def get_num_samples(self):
        return self.num_samples


class RandomSampler:
    """Rows in a random order (or drawn with replacement), at most num_samples (with
    replacement: num_samples draws, default the row count)."""

    def __init__(self, replacement=False, num_samples=None):
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got: {}.".format(replacement))
        self.replacement = replacement
        self.num_samples = _check_num_samples(num_samples)

    def _gradstep_size(self, rows):
        if self.replacement and self.num_samples:
            return self.num_samples
        return _capped(rows, self.num_samples)

    def _gradstep_indices(self, rows, seed):
        draw = _generator(seed)
        count = self._gradstep_size(rows)
        if self.replacement:
            return draw.randint(0, rows, size=count).tolist() if rows else []
        return draw.permutation(rows)[:count].tolist()

    def get_num_samples(self):
        return self.num_samples


class SubsetSampler:
    """The given row indices, in their order, at most num_samples."""

    def __init__(self, indices, num_samples=None):
        self.indices = _check_indices(indices)
        self.num_samples = _check_num_samples(num_samples)

    def _gradstep_size(self, rows):
        return _capped(len(self.indices), self.num_samples)

    def _gradstep_indices(self, rows, seed):
        return self.indices[:self._gradstep_size(rows)]

    def get_num_samples(self):
        return self.num_samples


class SubsetRandomSampler(SubsetSampler):
    """The given row indices in a random order, at most num_samples."""

    def _gradstep_indices(self, rows, seed):
        order = _generator(seed).permutation(len(self.indices))
        return [self.indices[i] for i in order[:self._gradstep_size(rows)]]


class WeightedRandomSampler:
    """num_samples rows (default: one per weight) drawn with probabilities proportional to weights,
    with or without replacement."""

    def __init__(self, weights, num_samples=None, replacement=True):
        if not isinstance(weights, (list, tuple)) or not weights:
            raise TypeError("weights should be a non-empty list or tuple of numbers, but got {}.".format(weights))
        for w in weights:
            if isinstance(w, bool) or not isinstance(w, numbers.Number):
                raise TypeError("type of weights element must be number, but got value {}, type: {}."
                                .format(w, type(w)))
        if any(w < 0 for w in weights):
            raise ValueError("weights cannot contain negative numbers.")
        if all(w == 0 for w in weights):
            raise ValueError("Sum of weights cannot be 0.")
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got: {}.".format(replacement))
        self.weights = [float(w) for w in weights]
        self.num_samples = _check_num_samples(num_samples)
        self.replacement = replacement
        if not replacement and self.num_samples and self.num_samples > sum(1 for w in weights if w > 0):
            raise ValueError("WeightedRandomSampler: num_samples {} is more than the rows with a weight above 0 "
                             "while replacement is False.".format(self.num_samples))

    def _gradstep_size(self, rows):
        return self.num_samples if self.num_samples else len(self.weights)

    def _gradstep_indices(self, rows, seed):
        if len(self.weights) > rows:
            raise ValueError("WeightedRandomSampler: {} weights but the dataset has {} rows."
                             .format(len(self.weights), rows))
        p = np.asarray(self.weights) / sum(self.weights)
        count = self._gradstep_size(rows)
        if not self.replacement:
            count = min(count, int(np.count_nonzero(p)))
        return _generator(seed).choice(len(p), size=count, replace=self.replacement, p=p).tolist()

    def get_num_samples(self):
        return self.num_samples


class PKSampler:
    """num_val rows of every class (the integer labels of class_column), class after class in
    label order; shuffle draws the class order and the rows within each class at random. A class
    with fewer rows repeats them."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None):
        if isinstance(num_val, bool) or not isinstance(num_val, numbers.Integral):
            raise TypeError("num_val must be integer but was: {}.".format(num_val))
        if num_val <= 0:
            raise ValueError("num_val should be a positive integer value, but got num_val: {}.".format(num_val))
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        if not isinstance(shuffle, bool):
            raise TypeError("shuffle must be a boolean value but was: {}.".format(shuffle))
        if not isinstance(class_column, str):
            raise TypeError("class_column must be a str value but was: {}.".format(class_column))
        self.num_val, self.num_class, self.shuffle = int(num_val), num_class, shuffle
        self.class_column = self._gradstep_class_column = class_column
        self.num_samples = _check_num_samples(num_samples)

    def _gradstep_indices(self, rows, seed, labels):
        draw = _generator(seed)
        classes = sorted(set(labels))
        if self.shuffle:
            classes = [classes[i] for i in draw.permutation(len(classes))]
        out = []
        for label in classes:
            members = [i for i, l in enumerate(labels) if l == label]
            if self.shuffle:
                members = [members[i] for i in draw.permutation(len(members))]
            out.extend(members[k % len(members)] for k in range(self.num_val))
        return out[:self.num_samples] if self.num_samples else out

    def get_num_samples(self):
        return self.num_samples


_ds.DistributedSampler = DistributedSampler
for _name in ("PKSampler", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler", "SubsetRandomSampler",
              "WeightedRandomSampler"):
    setattr(_ds, _name, globals()[_name])
