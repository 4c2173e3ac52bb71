"""batch(per_batch_map=...): the callable gets each input column's rows of the batch as a list of
NumPy arrays and a BatchInfo (batch number in the epoch, epoch number, both from 0); its columns
replace the input columns (renamed by output_columns) and may hold fewer rows than the batch."""
import numpy as np

import mindspore.dataset as ds

data = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.int32)}
seen = []


def double_x(x, info):
    assert isinstance(x, list) and len(x) in (4, 2), x
    assert all(isinstance(row, np.ndarray) and row.shape == (2,) for row in x)
    seen.append((info.get_epoch_num(), info.get_batch_num(), len(x)))
    return ([row * 2 for row in x],)


dataset = ds.NumpySlicesDataset(data, shuffle=False).batch(4, per_batch_map=double_x, input_columns=["x"])
assert dataset.get_col_names() == ["x", "y"], dataset.get_col_names()
iterator = dataset.create_tuple_iterator(num_epochs=2, output_numpy=True)
for epoch in range(2):
    batches = list(iterator)
    assert len(batches) == 2
    np.testing.assert_array_equal(batches[0][0], data["x"][:4] * 2)
    np.testing.assert_array_equal(batches[0][1], data["y"][:4])
    np.testing.assert_array_equal(batches[1][0], data["x"][4:] * 2)
assert seen == [(0, 0, 4), (0, 1, 2), (1, 0, 4), (1, 1, 2)], seen


# Slicing by rank, as a data-parallel script on rank 1 of 2 would: each batch of 4 rows keeps its
# second half, all columns at once, under new names.
def second_half(x, y, info):
    return x[2:], y[2:]


sliced = ds.NumpySlicesDataset(data, shuffle=False).batch(4, drop_remainder=True, per_batch_map=second_half,
                                                          input_columns=["x", "y"], output_columns=["image", "label"])
assert sliced.get_col_names() == ["image", "label"]
rows = list(sliced.create_dict_iterator(output_numpy=True))
assert len(rows) == 1
np.testing.assert_array_equal(rows[0]["image"], data["x"][2:4])
np.testing.assert_array_equal(rows[0]["label"], data["y"][2:4])

# A result with the wrong number of columns, or rows that do not match the untouched columns.
try:
    list(ds.NumpySlicesDataset(data, shuffle=False).batch(2, per_batch_map=lambda x, y, info: (x,),
                                                          input_columns=["x", "y"]))
    raise AssertionError("expected a ValueError")
except ValueError as e:
    assert "has 1 columns, expected 2" in str(e), e
try:
    list(ds.NumpySlicesDataset(data, shuffle=False).batch(4, per_batch_map=lambda x, info: (x[:1],),
                                                          input_columns="x"))
    raise AssertionError("expected a ValueError")
except ValueError as e:
    assert "every column of a batch needs as many rows" in str(e), e
try:
    ds.NumpySlicesDataset(data).batch(2, per_batch_map=lambda x, info: (x,), input_columns=["z"])
    raise AssertionError("expected a ValueError")
except ValueError as e:
    assert "z" in str(e), e
print("per_batch_map ok")

# A list result is read as MindSpore reads it: a sequence of columns, like a tuple.
def add_to_both(x, y, info):
    return [[row + 100 for row in x], [row + 300 for row in y]]


both = ds.NumpySlicesDataset(data, shuffle=False).batch(2, per_batch_map=add_to_both, input_columns=["x", "y"])
first = next(both.create_tuple_iterator(output_numpy=True))
np.testing.assert_array_equal(first[0], data["x"][:2] + 100)
np.testing.assert_array_equal(first[1], data["y"][:2] + 300)
