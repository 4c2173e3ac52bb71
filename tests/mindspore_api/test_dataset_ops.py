"""Dataset skip / filter / project / rename / concat / zip / split / take checks, composed with
batch, repeat and the iterators."""
import numpy as np

import mindspore.dataset as ds

from _check import raises


def rows(dataset, key=None):
    out = []
    for item in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
        out.append(item if key is None else item[key].tolist())
    return out


def gen():
    for i in range(6):
        yield np.array(i), np.array(i * 10)


base = ds.GeneratorDataset(gen, ["a", "b"], shuffle=False)

# get_dataset_size counts a generator's pipeline by running it once, then keeps the count (as
# MindSpore's Dataset.dataset_size); each new pipeline counts its own.
runs = []


def counted():
    runs.append(1)
    yield from gen()


sized = ds.GeneratorDataset(counted, ["a", "b"], shuffle=False).batch(4)
assert sized.get_dataset_size() == 2 and sized.get_dataset_size() == 2 and len(runs) == 1
assert sized.skip(1).get_dataset_size() == 1 and len(runs) == 2
assert rows(base.skip(4), "a") == [4, 5]
assert rows(base.skip(10), "a") == []
assert rows(base.repeat(2).skip(5), "a") == [5, 0, 1, 2, 3, 4, 5]
assert rows(base.skip(2).batch(2), "a") == [[2, 3], [4, 5]]
assert base.skip(2).get_dataset_size() == 4
raises(ValueError, base.skip, -1, match="within the required interval")
raises(TypeError, base.skip, 1.5)

assert rows(base.filter(lambda a: a % 2 == 0, input_columns=["a"]), "b") == [0, 20, 40]
assert rows(base.filter(lambda a, b: a + b > 30), "a") == [3, 4, 5]
raises(ValueError, base.filter, lambda c: True, ["c"])

projected = base.project(["b"])
assert projected.get_col_names() == ["b"] and rows(projected, "b")[:2] == [0, 10]
renamed = base.rename(["a"], ["x"])
assert renamed.get_col_names() == ["x", "b"] and rows(renamed, "x")[-1] == 5
raises(ValueError, base.rename, ["a", "b"], ["x"])
raises(RuntimeError, base.project, ["nope"])

second = ds.NumpySlicesDataset({"a": np.array([100, 101]), "b": np.array([1, 2])}, shuffle=False)
assert rows(base.concat(second), "a") == [0, 1, 2, 3, 4, 5, 100, 101]
assert rows(second + second, "a") == [100, 101, 100, 101]

other = ds.NumpySlicesDataset({"c": np.array([7, 8, 9])}, shuffle=False)
zipped = ds.zip((base, other))
assert zipped.get_col_names() == ["a", "b", "c"]
assert [r["c"].tolist() for r in rows(zipped)] == [7, 8, 9] and zipped.get_dataset_size() == 3
assert rows(base.zip(other), "a") == [0, 1, 2]
raises(RuntimeError, ds.zip, (base, base), match="duplicate column")

train, test = base.split([4, 2], randomize=False)
assert rows(train, "a") == [0, 1, 2, 3] and rows(test, "a") == [4, 5]
parts = base.split([0.5, 0.5])
assert sorted(rows(parts[0], "a") + rows(parts[1], "a")) == list(range(6))
raises(RuntimeError, base.split, [4, 4])

# the derived datasets run again on every epoch
it = base.skip(3).create_tuple_iterator(num_epochs=2, output_numpy=True)
assert [int(r[0]) for r in it] == [3, 4, 5]
assert [int(r[0]) for r in it] == [3, 4, 5]
it.stop()
raises(ValueError, base.batch(2).take, 0, match="within the required interval")
assert rows(base.take(2), "a") == [0, 1]
print("test_dataset_ops: ok")
