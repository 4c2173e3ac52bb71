"""TextFileDataset and CSVDataset (shuffle modes, num_samples, shards, typed columns), padded_batch,
batch(pad_info=...), bucket_batch_by_length, the transforms PadEnd, Slice, Concatenate and Mask over
numbers and strings, and Unique over batched numbers."""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms

from _check import raises

folder = tempfile.mkdtemp(prefix="gradstep_text_")


def write(name, content):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)
    return path


def column(dataset, index=0):
    return [r[index].tolist() for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


a = write("a.txt", "hello world\n\nfoo bar baz\nlast line")
b = write("b.txt", "x y\n")

# TextFileDataset: lines in file order (files sorted), empty lines skipped, one column 'text'
lines = ds.TextFileDataset([b, a], shuffle=False)
assert isinstance(lines, ds.TextFileDataset) and lines.get_col_names() == ["text"]
assert column(lines) == ["hello world", "foo bar baz", "last line", "x y"] and lines.get_dataset_size() == 4
ds.config.set_seed(3)
assert sorted(column(ds.TextFileDataset(os.path.join(folder, "*.txt")))) == sorted(column(lines))
assert column(ds.TextFileDataset([a, b], shuffle=False, num_samples=2)) == ["hello world", "foo bar baz"]
shards = [column(ds.TextFileDataset([a, b], shuffle=False, num_shards=2, shard_id=i)) for i in (0, 1)]
assert sorted(shards[0] + shards[1]) == sorted(column(lines)) and len(shards[0]) == 2
by_file = column(ds.TextFileDataset([a, b], shuffle=ds.Shuffle.FILES))
assert by_file in (column(lines), ["x y", "hello world", "foo bar baz", "last line"])
in_file = column(ds.TextFileDataset([a, b], shuffle=ds.Shuffle.INFILE))
assert in_file[3] == "x y" and sorted(in_file[:3]) == sorted(column(lines)[:3])
raises(ValueError, ds.TextFileDataset, os.path.join(folder, "*.none"), match="did not match any files")
raises(TypeError, ds.TextFileDataset, a, shuffle="yes")

# CSVDataset: header names the columns, column_defaults type them and fill empty fields
c = write("c.csv", 'id,score,name\n1,0.5,"a,b"\n2,,cc\n')
typed = ds.CSVDataset(c, column_defaults=[0, 1.5, ""], shuffle=False)
assert typed.get_col_names() == ["id", "score", "name"]
rows = list(typed.create_tuple_iterator(output_numpy=True))
assert rows[0][0].dtype == np.int32 and rows[0][1].dtype == np.float32 and rows[0][2].dtype.kind == "U"
assert [r[0].tolist() for r in rows] == [1, 2] and [r[1].tolist() for r in rows] == [0.5, 1.5]
assert [r[2].tolist() for r in rows] == ["a,b", "cc"]
named = ds.CSVDataset(c, column_names=["x", "y", "z"], shuffle=False)
assert column(named) == ["id", "1", "2"] and named.get_col_names() == ["x", "y", "z"]
semi = write("s.csv", "1;2\n3;4\n")
assert column(ds.CSVDataset(semi, ";", [0, 0], ["p", "q"], shuffle=False), 1) == [2, 4]
raises(RuntimeError, lambda: ds.CSVDataset(write("bad.csv", "a,b\n1,x\n"), column_defaults=[0, 0]),
       match="should be an int")
raises(RuntimeError, lambda: ds.CSVDataset(write("short.csv", "a,b\n1\n")), match="fields")
raises(TypeError, ds.CSVDataset, c, column_defaults=[[1]])

# padded_batch and batch(pad_info=...)


def gen():
    for n in [1, 3, 2, 5, 4, 2]:
        yield np.arange(n, dtype=np.int32), np.array(["w"] * n)


seq = ds.GeneratorDataset(gen, ["ids", "words"], shuffle=False)
padded = list(seq.padded_batch(2, pad_info={"ids": ([4], -1), "words": (None, "<pad>")})
              .create_tuple_iterator(output_numpy=True))
assert padded[0][0].tolist() == [[0, -1, -1, -1], [0, 1, 2, -1]]
assert padded[0][1].tolist() == [["w", "<pad>", "<pad>"], ["w", "w", "w"]]
assert padded[1][0].tolist() == [[0, 1, -1, -1], [0, 1, 2, 3]]  # the row of 5 is cut to pad_shape
assert [r[0].shape for r in seq.batch(3, pad_info={}).create_tuple_iterator(output_numpy=True)] == [(3, 3), (3, 5)]
assert column(seq.padded_batch(4, drop_remainder=True, pad_info={}))[0][0] == [0, 0, 0, 0, 0]
raises(ValueError, lambda: column(seq.padded_batch(2, pad_info={"ids": (None, 0)})), match="column 'words'")
raises(ValueError, seq.padded_batch, 2, pad_info={"nope": (None, 0)}, match="does not exist")
raises(TypeError, seq.padded_batch, 2, pad_info={"ids": [None, 0]})
raises(RuntimeError, lambda: column(seq.padded_batch(2, pad_info={"ids": ([2, 2], 0), "words": (None, "")})),
       match="rank of pad_shape must be equal")

# bucket_batch_by_length: [0, 2), [2, 4), [4, inf) with batch sizes 2, 2, 1
buckets = seq.bucket_batch_by_length(["ids"], [2, 4], [2, 2, 1], pad_info={})
assert column(buckets) == [[[0, 1, 2], [0, 1, 0]], [[0, 1, 2, 3, 4]], [[0, 1, 2, 3]], [[0]], [[0, 1]]]
assert column(seq.bucket_batch_by_length(["ids"], [2, 4], [2, 2, 1], pad_info={}, drop_remainder=True)) == \
    [[[0, 1, 2], [0, 1, 0]], [[0, 1, 2, 3, 4]], [[0, 1, 2, 3]]]
to_boundary = seq.bucket_batch_by_length(["ids"], [3, 6], [2, 2, 2], pad_info={"ids": ([None], 9), "words": ([6], "")},
                                         pad_to_bucket_boundary=True, drop_remainder=True)
assert column(to_boundary) == [[[0, 9], [0, 1]], [[0, 1, 2, 9, 9], [0, 1, 2, 3, 4]]]
# bucket [3, 8): a [None] entry pads to 7, a None shape to the batch's longest (5)
wide = {"ids": ([None], 9), "words": (None, "")}
assert [len(r) for r in column(seq.bucket_batch_by_length(["ids"], [3, 8], [2, 2, 2], pad_info=wide,
                                                          pad_to_bucket_boundary=True, drop_remainder=True))[1]] == [7, 7]
wide["ids"] = (None, 9)
assert [len(r) for r in column(seq.bucket_batch_by_length(["ids"], [3, 8], [2, 2, 2], pad_info=wide,
                                                          pad_to_bucket_boundary=True, drop_remainder=True))[1]] == [5, 5]
by_fn = seq.bucket_batch_by_length(["words", "ids"], [3], [3, 3], lambda w, i: len(w) * 10, pad_info={})
assert [len(b) for b in column(by_fn)] == [3, 3]
raises(ValueError, seq.bucket_batch_by_length, ["ids"], [4, 2], [1, 1, 1], match="strictly increasing")
raises(ValueError, seq.bucket_batch_by_length, ["ids"], [2], [1], match="one element more")
raises(ValueError, seq.bucket_batch_by_length, ["ids"], [0, 2], [1, 1, 1], match="positive")
raises(RuntimeError, lambda: column(seq.bucket_batch_by_length(["ids"], [2], [1, 1], pad_info={"ids": ([None], 0)},
                                                               pad_to_bucket_boundary=True)), match="last bucket")
assert len(column(seq.bucket_batch_by_length(["ids"], [2], [1, 1], pad_info={}, pad_to_bucket_boundary=True))) == 6

# transforms over strings and numbers
assert transforms.PadEnd([4], "x")(np.array(["a", "bb"])).tolist() == ["a", "bb", "x", "x"]
assert transforms.PadEnd([2, 3])(np.array([[1, 2], [3, 4], [5, 6]])).tolist() == [[1, 2, 0], [3, 4, 0]]
raises(RuntimeError, transforms.PadEnd([2, 2]), np.array([1]), match="rank")
assert transforms.Slice(slice(1, 3))(np.array([1, 2, 3, 4])).tolist() == [2, 3]
assert transforms.Slice([0, 2], 1)(np.arange(9).reshape(3, 3)).tolist() == [[1], [7]]
assert transforms.Slice(None, -1)(np.array([["a", "b"], ["c", "d"]])).tolist() == [["b"], ["d"]]
cat = transforms.Concatenate(0, np.array(["[CLS]"]), np.array(["[SEP]"]))
assert cat(np.array(["hi"])).tolist() == ["[CLS]", "hi", "[SEP]"]
raises(RuntimeError, transforms.Concatenate(0, np.array([1])), np.array(["a"]))
assert transforms.Mask(transforms.Relational.EQ, 3)(np.array([1, 2, 3])).tolist() == [False, False, True]
assert transforms.Mask(transforms.Relational.GE, 2, ms.int32)(np.array([1, 2, 3])).dtype == np.int32
assert transforms.Mask(transforms.Relational.NE, "a")(np.array(["a", "b"])).tolist() == [False, True]
# Unique flattens a batched (at least 2-D) numeric column
values, index, counts = transforms.Unique()(np.array([[5, 5, 3], [7, 3, 3]]))
assert values.tolist() == [5, 3, 7] and index.tolist() == [0, 0, 1, 2, 1, 1] and counts.tolist() == [2, 3, 1]
raises(RuntimeError, transforms.Unique(), np.zeros(2), match="input must be at least 2-D in order to do unique op")
raises(RuntimeError, transforms.Unique(), np.array([["a"]]), match="only support numeric datatype of input")
