"""MindSpore 2.2's argument checks and run-time errors of the dataset API, in its words: the sources'
column_names and shards, bucket_batch_by_length, concat of datasets whose columns differ, Fill,
PadEnd, Slice, Concatenate, Compose / RandomApply, and output_shapes of a data set without rows."""
import sys

import numpy as np

import mindspore.common.dtype as mstype
import mindspore.dataset as ds
import mindspore.dataset.transforms as T

from _check import raises


def values(dataset):
    return [[c.tolist() for c in r] for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


# NumpySlicesDataset and GeneratorDataset check their arguments before reading the data
raises(ValueError, ds.NumpySlicesDataset, [], match="Argument data cannot be empty")
raises(TypeError, ds.NumpySlicesDataset, [1, 2], column_names=[1],
       match="Argument column_names[0] with value 1 is not of type [<class 'str'>]")
raises(ValueError, ds.NumpySlicesDataset, [1, 2], column_names=[""], match="column_names[0] should not be empty")
raises(ValueError, ds.NumpySlicesDataset, [1, 2], column_names=[], match="column_names should not be empty")
raises(ValueError, ds.NumpySlicesDataset, [1, 2], column_names=["a", "a"], match="should not be same")
raises(ValueError, ds.NumpySlicesDataset, [1, 2], column_names=["a", "b"],
       match="Num of input column names is 2, but required is 1 as data is list.")
raises(ValueError, ds.NumpySlicesDataset, [1, 2], num_shards=sys.maxsize, shard_id=0,
       match="Input num_shards is not within the required interval of [1, 2147483647].")
raises(ValueError, ds.GeneratorDataset, lambda: iter([1]), column_names=[""], match="column_names[0] should not be empty")
assert values(ds.NumpySlicesDataset({"a": [1, 2]}, column_names="x", shuffle=False)) == [[1], [2]]

# a batch larger than the data set, with drop_remainder, has no rows: no shapes, no types
empty = ds.NumpySlicesDataset([[[1, 2], [3, 4]]], column_names=["col1"]).batch(batch_size=3, drop_remainder=True)
assert empty.output_shapes() == [] and empty.output_types() == []

# bucket_batch_by_length: MindSpore's checks, in its order
seq = ds.GeneratorDataset(lambda: (np.arange(i + 1) for i in range(4)), ["c"])
raises(TypeError, seq.bucket_batch_by_length, "c", [1], [1, 1], match="Argument column_names with value c")
raises(TypeError, seq.bucket_batch_by_length, [1], [1], [1, 1], match="Argument column_names[0] with value 1")
raises(ValueError, seq.bucket_batch_by_length, ["c"], [], [1], match="bucket_boundaries cannot be empty.")
raises(TypeError, seq.bucket_batch_by_length, ["c"], ["1"], [1, 1], match="bucket_boundaries should be a list of int.")
raises(ValueError, seq.bucket_batch_by_length, ["c"], [1, -2], [1, 1, 1],
       match="bucket_boundaries must only contain positive numbers.")
raises(TypeError, seq.bucket_batch_by_length, ["c"], [1], ["1", "2"], match="bucket_batch_sizes should be a list of int.")
raises(ValueError, seq.bucket_batch_by_length, ["c"], [1], [1, -1],
       match="bucket_batch_sizes should be a list of positive numbers.")
raises(TypeError, seq.bucket_batch_by_length, ["c"], [1], [1, 1], None, None, 1, match="pad_to_bucket_boundary")
assert [len(b[0]) for b in values(seq.bucket_batch_by_length(["c"], [3], [2, 2], pad_info={}))] == [2, 2]


# concat: every dataset must have the same columns, of the same types and ranks
def gen(start, stop):
    return lambda: (np.array([i]) for i in range(start, stop))


a, b = ds.GeneratorDataset(gen(0, 2), ["x"]), ds.GeneratorDataset(gen(2, 4), ["x"])
assert values(a + b) == [[[0]], [[1]], [[2]], [[3]]]
raises(RuntimeError, lambda: values(a + ds.GeneratorDataset(gen(2, 4), ["y"])), match="column names")
raises(RuntimeError, lambda: values(a + b.map(T.TypeCast(mstype.float32), input_columns="x")), match="data type")
raises(RuntimeError, lambda: values(a + b.batch(2)), match="rank")

# Fill: a string fills string columns only, a number numeric ones
filled = ds.GeneratorDataset(lambda: iter([(np.array([4, 5], np.uint8),)]), ["c"]).map(T.Fill(-3))
assert values(filled) == [[[253, 253]]] and filled.output_types()[0] == np.uint8
raises(RuntimeError, lambda: values(ds.GeneratorDataset(lambda: iter([(np.array([4]),)]), ["c"]).map(T.Fill("w"))),
       match="fill datatype does not match the input datatype")
assert T.Fill("x")(np.array(["a", "bc"])).tolist() == ["x", "x"]
raises(TypeError, T.Fill, [1], match="Argument fill_value with value [1] is not of type")

# PadEnd, Slice and Concatenate
raises(RuntimeError, T.PadEnd([3], "-1"), np.array([1, 2]), match="Source and pad_value are not of the same type.")
raises(TypeError, T.PadEnd, ["2"], match="a value in the list is not an integer.")
assert T.PadEnd([4], 7)(np.array([1, 2])).tolist() == [1, 2, 7, 7]
raises(RuntimeError, T.Slice([5]), np.arange(5), match="Index 5 is out of bounds.")
raises(RuntimeError, T.Slice([]), np.arange(5), match="Both indices and slices can not be empty.")
raises(TypeError, T.Slice, [[0, 1]], match="Argument slice_option[0] with value [0, 1] is not of type [<class 'int'>]")
assert T.Slice([-1, 0])(np.arange(5)).tolist() == [4, 0]
raises(ValueError, T.Concatenate, 2, match="only 1D concatenation supported.")
raises(ValueError, T.Concatenate, 0, np.zeros((2, 2)), match="can only prepend 1D arrays.")
raises(ValueError, T.Concatenate, 0, None, np.zeros((2, 2)), match="can only append 1D arrays.")
raises(RuntimeError, T.Concatenate(0, np.array(["a"])), np.array([1.0]), match="input datatype does not match")
assert T.Concatenate(-1, np.array([1]), np.array([4]))(np.array([2, 3])).tolist() == [1, 2, 3, 4]

# Compose, RandomApply and RandomChoice take a non-empty list of operations
raises(TypeError, T.RandomApply, T.TypeCast(mstype.int32),
       match="Argument transforms list with value")
raises(TypeError, T.RandomApply, [T.TypeCast(mstype.int32)], None,
       match="Argument prob with value None is not of type [<class 'float'>, <class 'int'>]")
raises(ValueError, T.RandomChoice, [], match="transforms list can not be empty.")
raises(ValueError, T.Compose, [T.Fill], match="It may be missing parentheses for instantiation.")
assert T.RandomApply([lambda x: x + 1], 1)(np.array([1])).tolist() == [2]

# text operations: one column in, MindSpore's messages, an empty 1-D result for a too wide window
import mindspore.dataset.text as text  # noqa: E402

assert text.SlidingWindow(30)(np.arange(5)).shape == (0,)
raises(RuntimeError, text.SlidingWindow(2), np.zeros((2, 2)), match="SlidingWindow supports 1D input only for now.")
raises(RuntimeError, text.SlidingWindow(2), ["a"], ["b"], match="The op is OneToOne, can only accept one tensor as input")
raises(RuntimeError, text.ToNumber(mstype.float16), np.array(["655040.0"]), match="outside of valid float16 range")
raises(RuntimeError, text.ToNumber(mstype.float32), np.array(["3.4e39"]),
       match="string input 3.4e39 will be out of bounds if cast to float32")

# Unique after batch: the batch is flattened
batched = ds.NumpySlicesDataset([[0, 1, 2, 1, 2, 3]], column_names="x").batch(2)
unique = batched.map(T.Unique(), input_columns=["x"], output_columns=["x", "y", "z"])
assert values(unique) == [[[0, 1, 2, 3], [0, 1, 2, 1, 2, 3], [1, 2, 2, 1]]]

# apply builds a pipeline with a function, which must return a Dataset
assert values(a.apply(lambda d: d.repeat(2))) == [[[0]], [[1]], [[0]], [[1]]]
raises(TypeError, a.apply, "123", match="apply_func is not a function.")
raises(TypeError, a.apply, lambda d: 3, match="apply_func must return a dataset.")
raises(RuntimeError, text.ToNumber(mstype.float64), np.array(["1.8e+308"]),
       match="string input 1.8e+308 will be out of bounds if cast to float64")
assert np.isinf(text.ToNumber(mstype.float64)(np.array(["-inf"]))[0])
raises(TypeError, text.ToNumber(mstype.int8), [["1", "2"], ["3"]],
       match="Invalid user input. Got <class 'list'>: [['1', '2'], ['3']], cannot be converted into tensor")

# batch, repeat, shuffle and concat check their arguments as MindSpore does
raises(TypeError, a.repeat, 1.5, match="Argument repeat with value 1.5 is not of type [<class 'int'>, <class 'NoneType'>]")
raises(ValueError, a.repeat, 0, match="count should be either -1 or positive integer, range[1, INT32_MAX].")
raises(TypeError, a.shuffle, 1.5, match="Argument buffer_size with value 1.5 is not of type [<class 'int'>]")
raises(ValueError, a.shuffle, 1, match="Input buffer_size is not within the required interval of [2, 2147483647].")
raises(TypeError, a.batch, 2.5, match="batch_size should either be an int or a callable.")
raises(ValueError, a.batch, 0, match="Input batch_size is not within the required interval of [1, 2147483647].")
raises(TypeError, a.batch, 2, 1, match="Argument drop_remainder with value 1 is not of type [<class 'bool'>]")
raises(ValueError, a.batch, 2, input_columns=["x"], match="input_columns can be specified only when per_batch_map is set.")
raises(ValueError, a.batch, 2, per_batch_map=lambda x, y, info: (x,), input_columns=["x"],
       match="The signature of per_batch_map should match with input columns.")
raises(TypeError, a.concat, 3, match="Argument datasets with value 3 is not of type")
assert values(a.repeat(None).take(3)) == [[[0]], [[1]], [[0]]] and len(values(a.batch(2, True))) == 1
