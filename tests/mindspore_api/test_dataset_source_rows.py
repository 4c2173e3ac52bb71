"""How GeneratorDataset reads its source's rows and NumpySlicesDataset slices ragged lists, as
MindSpore 2.2 does: a tuple or list row is one column per item, a single value is one column;
mismatched rows and object items are RuntimeErrors in MindSpore's words; an object with only
__getitem__ iterates until IndexError; map's column count, column_order and network operators are
checked; mindspore.dataset.engine shows the same classes; config keeps its pipeline settings."""
import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.engine as engine
import mindspore.dataset.engine.iterators as iterators
from mindspore import nn

from _check import raises


def rows(dataset):
    return [[c.tolist() for c in r] for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


# a list row is one column per item, like a tuple; a single array is one column
as_list = ds.GeneratorDataset(lambda: iter([[np.array(1), np.array([2, 3])]]), ["a", "b"])
assert rows(as_list) == [[1, [2, 3]]]
single = ds.GeneratorDataset(lambda: iter([np.array([4, 5])]), ["a"])
assert rows(single) == [[[4, 5]]]

# the number of items must match column_names
two = ds.GeneratorDataset(lambda: iter([(np.array(1), np.array(2))]), ["a"])
raises(RuntimeError, lambda: rows(two), match="the size of column_names is:1 and number of returned NumPy array is:2")
raises(RuntimeError, lambda: rows(two), match="the 'source' of 'GeneratorDataset' should return same number")
# an item NumPy holds only as objects names its position (from 1)
sets = ds.GeneratorDataset(lambda: iter([(np.array(1), {3})]), ["a", "b"])
raises(RuntimeError, lambda: rows(sets), match="Data type of 2th item of the input or its converted Numpy array")
nested = ds.GeneratorDataset(lambda: iter([np.array([{1}], dtype=object)]), ["a"])
raises(RuntimeError, lambda: rows(nested), match="Data type of the input or its converted Numpy array is expected")


class Indexed:
    """__getitem__ without __len__: Python iterates it until IndexError."""

    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return np.array([i * 10])


seq = ds.GeneratorDataset(Indexed(), ["x"])
assert rows(seq) == [[[0]], [[10]], [[20]]] and seq.get_dataset_size() == 3

# ragged lists slice row by row
ragged = ds.NumpySlicesDataset(([np.array([1], np.uint8), np.array([5, 6], np.uint8), np.array([9, 10, 11], np.uint8)],
                                [1, 2, 3]), ["data", "label"], shuffle=False)
assert rows(ragged) == [[[1], 1], [[5, 6], 2], [[9, 10, 11], 3]]
assert ragged.get_dataset_size() == 3
third = ds.NumpySlicesDataset({"d": [[], [1], [2, 3]]}, num_shards=3, shard_id=2, shuffle=False)
assert rows(third) == [[[2, 3]]]
raises(ValueError, ds.NumpySlicesDataset, ([[1], [2, 3]], [1, 2, 3]), match="different numbers of rows")

# map: the number of columns the operation returns must match output_columns
pairs = ds.GeneratorDataset(lambda: iter([(np.array(1), np.array(2))]), ["a", "b"])
bad = pairs.map(lambda x: (x, x), input_columns=["a"])
raises(RuntimeError, lambda: rows(bad), match="the number of columns returned in 'map' operations should match the "
                                              "number of 'output_columns'")
assert rows(pairs.map(lambda x: (x, x * 3), input_columns=["a"], output_columns=["a", "c"])) == [[1, 3, 2]]
raises(ValueError, pairs.map, lambda x: x, input_columns=["a"], column_order=["a", "b"],
       match="The parameter 'column_order' had been deleted in map operation. Please use '.project' operation instead.")
raises(ValueError, pairs.map, nn.ReLU(), match="Input operations should not contain network computing operator")
raises(TypeError, pairs.map, lambda x: x, python_multiprocessing=1, match="python_multiprocessing")
raises(ValueError, pairs.map, lambda x: x, input_columns=[], match="input_columns should not be empty.")
assert rows(pairs.map(lambda x: x + 1, input_columns="b", num_parallel_workers=2, python_multiprocessing=True)) == [[1, 3]]

# mindspore.dataset.engine is where MindSpore defines these names
assert engine.GeneratorDataset is ds.GeneratorDataset and iterators.DatasetIterator is ds.DatasetIterator
raises(AttributeError, lambda: engine.not_a_name)

# pipeline settings read back what was set, with MindSpore's defaults and checks
assert ds.config.get_prefetch_size() == 16 and ds.config.get_num_parallel_workers() == 8
assert ds.config.get_enable_shared_mem() is True
ds.config.set_prefetch_size(2)
ds.config.set_num_parallel_workers(3)
ds.config.set_enable_shared_mem(False)
assert (ds.config.get_prefetch_size(), ds.config.get_num_parallel_workers(), ds.config.get_enable_shared_mem()) == \
    (2, 3, False)
raises(ValueError, ds.config.set_prefetch_size, 0, match="size is not within the required range")
raises(TypeError, ds.config.set_num_parallel_workers, 2.0, match="num isn't of type int.")
raises(TypeError, ds.config.set_enable_shared_mem, 1, match="enable must be of type bool.")
