"""GeneratorDataset over each kind of source the dataset tutorial shows: an iterator class whose
__iter__ starts it over (read again every epoch), a generator function (called every epoch), a
generator object (read once) and a random-accessible class."""
import numpy as np

from mindspore.dataset import GeneratorDataset


class IterableDataset:
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __next__(self):
        return next(self.data)

    def __iter__(self):
        self.data = iter(range(self.start, self.end))
        return self


def values(dataset):
    return [int(row[0].asnumpy()) for row in dataset.create_tuple_iterator()]


iterable = GeneratorDataset(source=IterableDataset(1, 5), column_names=["data"])
assert values(iterable) == [1, 2, 3, 4]
assert values(iterable) == [1, 2, 3, 4]          # a second epoch starts over

function = GeneratorDataset(source=lambda: (i for i in range(3, 6)), column_names=["data"])
assert values(function) == [3, 4, 5] and values(function) == [3, 4, 5]

once = GeneratorDataset(source=(i for i in range(2)), column_names=["data"])
assert values(once) == [0, 1]


class RandomAccess:
    def __getitem__(self, index):
        return np.array([index, 2 * index])

    def __len__(self):
        return 3


rows = [r[0].asnumpy().tolist() for r in GeneratorDataset(RandomAccess(), ["data"], shuffle=False)]
assert rows == [[0, 0], [1, 2], [2, 4]], rows
print("ok")
