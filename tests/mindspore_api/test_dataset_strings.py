"""String columns through the pipeline: str, bytes and NumPy str sources, map callables taking and
giving strings, batch, shuffle, repeat, take, skip, zip, project, rename, and the iterators giving
NumPy str arrays back (a Tensor holds numbers)."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds

from _check import raises


def texts(dataset, column=0):
    return [r[column].tolist() for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


words = ["alpha", "be", "", "délta", "北京"]


def gen():
    for i, w in enumerate(words):
        yield np.array(w), np.array(i, np.int32)


g = ds.GeneratorDataset(gen, ["w", "i"], shuffle=False)
row = next(g.create_tuple_iterator())
assert isinstance(row[0], np.ndarray) and row[0].dtype.kind == "U" and row[0].shape == ()
assert str(row[0]) == "alpha" and isinstance(row[1], ms.Tensor)
d = next(g.create_dict_iterator())
assert isinstance(d["w"], np.ndarray) and str(d["w"]) == "alpha"
assert texts(g) == words
assert g.output_types()[0].kind == "U" and g.output_shapes() == [[], []]

# str, bytes and lists of them as sources
plain = ds.GeneratorDataset(lambda: iter([("x",), (b"y\xc3\xa9",), (["p", "q"],)]), ["s"])
assert texts(plain) == ["x", "yé", ["p", "q"]]
sliced = ds.NumpySlicesDataset({"w": words, "n": np.arange(5)}, shuffle=False)
assert texts(sliced) == words and sliced.get_col_names() == ["w", "n"]

# map: callables get NumPy str arrays and may return str, lists of str or arrays
seen = []


def shout(w):
    seen.append((type(w), w.dtype.kind))
    return np.char.upper(w)


up = g.map(shout, input_columns="w")
assert texts(up) == ["ALPHA", "BE", "", "DÉLTA", "北京"] and seen[0] == (np.ndarray, "U")
split = g.map(lambda w: (str(w), len(str(w))), input_columns="w", output_columns=["w", "len"])
assert split.get_col_names() == ["w", "len", "i"] and texts(split, 1) == [5, 2, 0, 5, 2]

# batch of equal shapes stacks strings; ragged ones name the column
assert texts(g.batch(2)) == [["alpha", "be"], ["", "délta"], ["北京"]]
assert texts(g.batch(2, drop_remainder=True)) == [["alpha", "be"], ["", "délta"]]
pairs = g.map(lambda w: np.array([str(w), str(w)[::-1]]), input_columns="w").batch(2)
assert texts(pairs)[0] == [["alpha", "ahpla"], ["be", "eb"]]
ragged = g.map(lambda w: np.array(list(str(w)) or [""]), input_columns="w").batch(2)
raises(ValueError, lambda: texts(ragged), match="column 'w' cannot be stacked")

# shuffle, repeat, take, skip, zip, project, rename
ds.config.set_seed(7)
assert sorted(texts(g.shuffle(10))) == sorted(words)
assert texts(g.repeat(2).take(7)) == words + words[:2]
assert texts(g.skip(3)) == ["délta", "北京"]
other = ds.NumpySlicesDataset({"v": ["1", "2", "3"]}, shuffle=False)
zipped = ds.zip((g, other))
assert zipped.get_col_names() == ["w", "i", "v"] and texts(zipped, 2) == ["1", "2", "3"]
assert texts(g.project(["w"])) == words and texts(g.rename("w", "word")) == words
assert g.rename("w", "word").get_col_names() == ["word", "i"]

# numeric uses of a string column fail by name
raises(TypeError, lambda: texts(g.map(ds.transforms.TypeCast(ms.int32), input_columns="w")),
       match="TypeCast: the input is a string column")
raises(TypeError, lambda: ds.GeneratorDataset(lambda: iter([({"k": 1},)]), ["d"]).output_types(),
       match="expected numbers, strings")
