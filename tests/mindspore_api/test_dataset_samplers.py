"""The samplers of mindspore.dataset as sampler= of NumpySlicesDataset, GeneratorDataset (a
random-access source) and MnistDataset: the rows each gives, dataset sizes, seeds that repeat,
a Sampler subclass, a plain list of indices and a random-access sampler (__getitem__ and __len__),
and MindSpore's argument errors."""
import os
import shutil
import tempfile

import numpy as np

import mindspore.dataset as ds

from _check import raises

data = np.arange(10) * 10


def values(sampler, source=None):
    dataset = ds.NumpySlicesDataset(data, ["x"], sampler=sampler) if source is None else source
    return [int(r[0]) // 10 for r in dataset.create_tuple_iterator(output_numpy=True)]


assert values(ds.SequentialSampler()) == list(range(10))
assert values(ds.SequentialSampler(start_index=7)) == [7, 8, 9]
assert values(ds.SequentialSampler(2, num_samples=3)) == [2, 3, 4]
assert values(ds.SubsetSampler([5, 1, 7])) == [5, 1, 7]
assert values(ds.SubsetSampler(np.array([4, 4]))) == [4, 4]
assert values([3, 0, 9]) == [3, 0, 9]
assert sorted(values(ds.SubsetRandomSampler([5, 1, 7]))) == [1, 5, 7]
assert len(values(ds.SubsetRandomSampler([5, 1, 7], num_samples=2))) == 2

ds.config.set_seed(3)
first = values(ds.RandomSampler())
ds.config.set_seed(3)
assert values(ds.RandomSampler()) == first and sorted(first) == list(range(10)) and first != list(range(10))
assert len(values(ds.RandomSampler(num_samples=4))) == 4
with_replacement = values(ds.RandomSampler(replacement=True, num_samples=30))
assert len(with_replacement) == 30 and len(set(with_replacement)) < 10

weighted = values(ds.WeightedRandomSampler([0, 0, 1, 0, 0, 0, 0, 0, 0, 3], num_samples=200))
assert set(weighted) == {2, 9} and 100 < weighted.count(9) < 190
assert sorted(values(ds.WeightedRandomSampler([1, 1, 0, 0, 1], 3, replacement=False))) == [0, 1, 4]

# Every epoch draws again; the dataset's size is the sampler's.
dataset = ds.NumpySlicesDataset(data, ["x"], sampler=ds.RandomSampler(num_samples=5))
assert dataset.get_dataset_size() == 5
epochs = dataset.create_tuple_iterator(num_epochs=2, output_numpy=True)
orders = [[int(r[0]) for r in epochs] for _ in range(2)]
assert all(len(o) == 5 for o in orders)
assert orders[0] != orders[1]
assert ds.NumpySlicesDataset(data, ["x"], sampler=ds.SequentialSampler(8)).batch(2).get_dataset_size() == 1


class Source:
    def __getitem__(self, i):
        return (np.array(i * 10),)

    def __len__(self):
        return 10


class Evens(ds.Sampler):
    def __iter__(self):
        return iter(range(0, self.dataset_size, 2))


assert values(None, ds.GeneratorDataset(Source(), ["x"], sampler=ds.SubsetSampler([9, 0]))) == [9, 0]
assert values(Evens()) == [0, 2, 4, 6, 8] and values(Evens(num_samples=2)) == [0, 2]
samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "data")
mnist = tempfile.mkdtemp(prefix="samplers_mnist_")
try:
    for ours, theirs in (("digits-test-images-idx3-ubyte", "t10k-images-idx3-ubyte"),
                         ("digits-test-labels-idx1-ubyte", "t10k-labels-idx1-ubyte")):
        shutil.copy(os.path.join(samples, ours), os.path.join(mnist, theirs))
    picked = ds.MnistDataset(mnist, sampler=ds.SubsetSampler([4, 2]))
    everything = list(ds.MnistDataset(mnist, shuffle=False).create_tuple_iterator(output_numpy=True))
    got = list(picked.create_tuple_iterator(output_numpy=True))
    assert picked.get_dataset_size() == 2 and np.array_equal(got[0][0], everything[4][0])
    assert int(got[1][1]) == int(everything[2][1])
finally:
    shutil.rmtree(mnist)

# PKSampler: num_val rows per class of the label column, classes in label order.
classes = {"x": data, "label": np.array([2, 0, 2, 1, 0, 2, 1, 1, 2, 0], np.int32)}
pk = ds.NumpySlicesDataset(classes, sampler=ds.PKSampler(2))
assert values(None, pk) == [1, 4, 3, 6, 0, 2] and pk.get_dataset_size() == 6
few = ds.NumpySlicesDataset(classes, sampler=ds.PKSampler(4, num_samples=5))
assert values(None, few) == [1, 4, 9, 1, 3]
ds.config.set_seed(2)
shuffled = values(None, ds.NumpySlicesDataset(classes, sampler=ds.PKSampler(3, shuffle=True)))
assert len(shuffled) == 9 and sorted(int(classes["label"][i]) for i in shuffled) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
raises(ValueError, values, None, ds.NumpySlicesDataset(classes, sampler=ds.PKSampler(2, class_column="y")),
       match="column 'y' does not exist")
raises(NotImplementedError, ds.PKSampler, 2, num_class=3, match="num_class")

raises(ValueError, values, [12], match="Sample ID (12) is out of bound")
raises(ValueError, ds.NumpySlicesDataset, data, ["x"], shuffle=True, sampler=ds.RandomSampler(),
       match="Conflicting arguments during sampler assignments")
raises(ValueError, ds.GeneratorDataset, lambda: iter([(np.array(1),)]), ["x"], sampler=ds.RandomSampler(),
       match="random-accessible")
raises(TypeError, ds.NumpySlicesDataset, data, ["x"], sampler=3.5, match="sampler")
raises(TypeError, ds.RandomSampler, replacement=1, match="replacement")
raises(ValueError, ds.RandomSampler, num_samples=-1, match="num_samples")
raises(TypeError, ds.SubsetSampler, [1, "a"], match="indices")
raises(ValueError, ds.WeightedRandomSampler, [0, 0], match="Sum of weights cannot be 0")
raises(ValueError, ds.WeightedRandomSampler, [1, -1], match="negative")


class RandomAccessSampler:
    """The data sampling tutorial's sampler: __getitem__ and __len__, no __iter__."""

    def __init__(self):
        self.index_ids = [3, 4, 3, 2, 0, 9, 5, 5]

    def __getitem__(self, index):
        return self.index_ids[index]

    def __len__(self):
        return len(self.index_ids)


assert values(RandomAccessSampler()) == [3, 4, 3, 2, 0, 9, 5, 5]
raises(TypeError, ds.NumpySlicesDataset, data, ["x"], sampler=object(), match="__getitem__ and __len__")
print("test_dataset_samplers: ok")
