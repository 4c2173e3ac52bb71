// mindspore.dataset from Python: sources, batch, shuffle under a seed, map with callables and
// transforms, repeat / take, iterators, MNIST files written by the script and the shipped digits,
// and the errors. Each case is a script whose asserts must hold. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import mindspore.dataset as ds\n"
                             "import numpy as np\n"
                             "from mindspore import Tensor\n"
                             "def raises(kind, fn, *texts):\n"
                             "    try:\n"
                             "        fn()\n"
                             "    except kind as e:\n"
                             "        for text in texts:\n"
                             "            assert text in str(e), str(e)\n"
                             "    else:\n"
                             "        raise AssertionError(f'{fn} did not raise {kind.__name__}')\n";

void checkPython(const std::string& body)
{
    checkRuns(kPrelude + body);
}

} // namespace

TEST_CASE("NumpySlicesDataset slices lists, tuples and dicts into named columns of tensors")
{
    checkPython(R"(
d = ds.NumpySlicesDataset([[1, 2], [3, 4], [5, 6]], shuffle=False)
assert d.get_col_names() == ["column_0"] and d.get_dataset_size() == 3 and d.get_batch_size() == 1
rows = [x for (x,) in d]
assert all(isinstance(x, Tensor) for x in rows)
assert [x.asnumpy().tolist() for x in rows] == [[1, 2], [3, 4], [5, 6]]
x = np.arange(12, dtype=np.float32).reshape(4, 3)
y = np.array([0, 1, 0, 1], np.int32)
d = ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False)
assert d.get_col_names() == ["data", "label"]
got = list(d.create_tuple_iterator(output_numpy=True))
assert len(got) == 4 and got[2][0].tolist() == [6.0, 7.0, 8.0] and got[2][1] == 0
assert got[0][0].dtype == np.float32 and got[0][1].dtype == np.int32
rows = list(ds.NumpySlicesDataset({"a": [1.5, 2.5], "b": [3, 4]}, shuffle=False).create_dict_iterator())
assert list(rows[1].keys()) == ["a", "b"] and rows[1]["a"].asnumpy() == 2.5 and rows[1]["b"].asnumpy() == 4
assert rows[0]["a"].dtype == ms.float64 and rows[0]["b"].dtype == ms.int64
assert ds.NumpySlicesDataset(x, num_samples=2, shuffle=False).get_dataset_size() == 2
assert isinstance(d, ds.NumpySlicesDataset) and isinstance(d.batch(2), ds.Dataset)
raises(ValueError, lambda: ds.NumpySlicesDataset((x, y), column_names=["only"]),
       "Num of input column names is 1, but required is 2.")
raises(ValueError, lambda: ds.NumpySlicesDataset((x, y[:3])), "4", "3")
)");
}

TEST_CASE("batch stacks rows, drop_remainder drops the short batch and ragged rows name the column")
{
    checkPython(R"(
d = ds.NumpySlicesDataset((np.arange(10, dtype=np.float32).reshape(5, 2), np.arange(5)), ["x", "y"], shuffle=False)
b = d.batch(2)
assert b.get_dataset_size() == 3 and b.get_batch_size() == 2
shapes = [(x.shape, y.shape) for x, y in b]
assert shapes == [((2, 2), (2,)), ((2, 2), (2,)), ((1, 2), (1,))], shapes
assert [y.asnumpy().tolist() for _, y in b] == [[0, 1], [2, 3], [4]]
b = d.batch(2, drop_remainder=True)
assert b.get_dataset_size() == 2 and len(list(b)) == 2
assert b.output_shapes() == [[2, 2], [2]] and b.output_types() == [np.float32, np.int64]
def ragged():
    for n in (2, 3):
        yield (np.zeros((n, 4), np.float32),)
g = ds.GeneratorDataset(ragged, ["seq"]).batch(2)
raises(ValueError, lambda: list(g), "column 'seq'", "[2, 4]", "[3, 4]")
raises(ValueError, lambda: d.batch(0), "batch_size")
)");
}

TEST_CASE("shuffle orders repeat under one seed and differ between seeds, with either set_seed")
{
    checkPython(R"(
def order(make):
    return [int(x.asnumpy()) for (x,) in make()]
data = np.arange(40)
sampled = lambda: ds.NumpySlicesDataset(data)
buffered = lambda: ds.NumpySlicesDataset(data, shuffle=False).shuffle(buffer_size=16)
for make in (sampled, buffered):
    ds.config.set_seed(1)
    assert ds.config.get_seed() == 1
    first = order(make)
    assert sorted(first) == list(range(40)) and first != list(range(40))
    assert order(make) == first
    ds.config.set_seed(2)
    assert order(make) != first
    ms.set_seed(1)
    assert order(make) == first, "mindspore.set_seed seeds the data pipelines too"
    assert ds.config.get_seed() == 1
# one iterator over two epochs: the second epoch has a new order
it = buffered().create_tuple_iterator(num_epochs=2, output_numpy=True)
e1 = [int(x) for (x,) in it]
e2 = [int(x) for (x,) in it]
assert sorted(e1) == sorted(e2) == list(range(40)) and e1 != e2
assert list(it) == []
assert order(lambda: ds.NumpySlicesDataset(data, shuffle=False)) == list(range(40))
raises(ValueError, lambda: ds.config.set_seed(-1), "seed")
raises(TypeError, lambda: ds.config.set_seed(1.5), "int")
)");
}

TEST_CASE("map applies Python callables and bound transforms to the named columns")
{
    checkPython(R"(
import mindspore.dataset.transforms as transforms
import mindspore.dataset.vision as vision
x = np.arange(12, dtype=np.uint8).reshape(2, 2, 3, 1) * 20
d = ds.NumpySlicesDataset((x, np.array([3, 7])), ["image", "label"], shuffle=False)
seen = []
def double(label):
    seen.append(type(label))
    return label * 2
m = d.map(operations=double, input_columns="label")
assert [int(l.asnumpy()) for _, l in m] == [6, 14] and seen[0] is np.ndarray
m = d.map([vision.Rescale(1.0 / 255.0, -0.5), vision.HWC2CHW()], input_columns=["image"])
m = m.map(transforms.TypeCast(ms.int32), input_columns="label")
img, label = next(iter(m.create_tuple_iterator(output_numpy=True)))
assert img.dtype == np.float32 and img.shape == (1, 2, 3)
expected = (x[0].astype(np.float32) * np.float32(1.0 / 255.0) + np.float32(-0.5)).transpose(2, 0, 1)
assert np.array_equal(img, expected) and label.dtype == np.int32
raw = next(iter(d.create_tuple_iterator(output_numpy=True)))[0]
assert raw.dtype == np.uint8 and raw[1, 2, 0] == 100, "uint8 stays uint8 as NumPy"
t = next(iter(d))[0]
assert t.dtype == ms.uint8 and t.asnumpy()[1, 2, 0] == 100, "and stays UInt8 as a Tensor"
assert np.array_equal(vision.HWC2CHW()(np.zeros((4, 5, 3))), np.zeros((3, 4, 5)))
assert transforms.TypeCast(np.uint8)(np.array([300.0, -2.0, 7.9])).tolist() == [255, 0, 7]
split = d.map(lambda im: (im, im.sum()), input_columns="image", output_columns=["image", "total"])
assert split.get_col_names() == ["image", "total", "label"]
assert [int(s.asnumpy()) for _, s, _ in split] == [int(x[0].sum()), int(x[1].sum())]
raises(ValueError, lambda: d.map(double, input_columns=["labels"]), "'labels'", "'image', 'label'")
raises(RuntimeError, lambda: list(d.map(lambda im: (im, im), input_columns="image")),
       "columns returned in 'map' operations: 2, the number of 'output_columns': 1.")
raises(TypeError, lambda: d.map(3), "callables")
raises(ZeroDivisionError, lambda: list(d.map(lambda l: 1 // 0, input_columns="label")))
)");
}

TEST_CASE("GeneratorDataset reads generator functions, generators, iterables and sequences")
{
    checkPython(R"(
def gen():
    for i in range(5):
        yield np.array([i, i * i], np.int64), np.float32(i / 2)
d = ds.GeneratorDataset(gen, column_names=["a", "b"])
assert d.get_dataset_size() == 5 and d.get_col_names() == ["a", "b"]
for epoch in range(2):
    rows = [(a.asnumpy().tolist(), float(b.asnumpy())) for a, b in d]
    assert rows == [([i, i * i], i / 2) for i in range(5)], rows
assert [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(iter(range(3)), "v")] == [0, 1, 2]
assert [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(range(4), ["v"], shuffle=False)] == [0, 1, 2, 3]
assert len(list(ds.GeneratorDataset(gen, ["a", "b"], num_samples=2))) == 2
class Seq:
    def __getitem__(self, i):
        return (np.array(i * 10, np.int32),)
    def __len__(self):
        return 30
ordered = [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(Seq(), ["v"], shuffle=False)]
assert ordered == [i * 10 for i in range(30)]
ms.set_seed(3)
shuffled = [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(Seq(), ["v"])]
assert sorted(shuffled) == ordered and shuffled != ordered
assert [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(Seq(), ["v"])] == shuffled
r = ds.GeneratorDataset(gen, ["a", "b"]).repeat(3)
assert r.get_dataset_size() == 15 and ds.GeneratorDataset(gen, ["a", "b"]).take(2).get_dataset_size() == 2
assert ds.GeneratorDataset(Seq(), ["v"]).batch(4).repeat(2).get_dataset_size() == 16
raises(ValueError, lambda: ds.GeneratorDataset(gen), "column_names")
raises(RuntimeError, lambda: list(ds.GeneratorDataset(gen, ["a"])),
       "the size of column_names is:1 and number of returned NumPy array is:2.")
assert str(list(ds.GeneratorDataset(lambda: iter(["x"]), ["s"]))[0][0]) == "x"  # strings are columns too
# a list row is a column per item, as a tuple is; a row NumPy holds only as objects is refused
assert [v.asnumpy().tolist() for v in next(iter(ds.GeneratorDataset(lambda: iter([[1, [2, 3]]]), ["a", "b"])))] \
    == [1, [2, 3]]
raises(RuntimeError, lambda: list(ds.GeneratorDataset(lambda: iter([(1, {2})]), ["a", "b"])),
       "Data type of 2th item of the input or its converted Numpy array is expected to be int or float or str")
raises(TypeError, lambda: list(ds.GeneratorDataset(lambda: iter([object()]), ["s"])), "not iterable")
class Indexed:
    def __getitem__(self, i):
        if i == 2:
            raise IndexError(i)
        return np.array(i)
assert [int(v.asnumpy()) for (v,) in ds.GeneratorDataset(Indexed(), ["v"])] == [0, 1]
ragged = ds.NumpySlicesDataset({"v": [[1], [2, 3]], "n": [4, 5]}, shuffle=False)
assert [(v.asnumpy().tolist(), int(n.asnumpy())) for v, n in ragged] == [([1], 4), ([2, 3], 5)]
)");
}

TEST_CASE("MnistDataset reads IDX files written by the script as uint8 HWC images and labels")
{
    checkPython(R"(
import os, tempfile
root = tempfile.mkdtemp()
def write(name, magic, dims, values):
    header = np.array([magic] + list(dims), dtype=">u4").tobytes()
    with open(os.path.join(root, name), "wb") as f:
        f.write(header + values.astype(np.uint8).tobytes())
images = (np.arange(5 * 4 * 3) % 256).reshape(5, 4, 3)
labels = np.array([3, 1, 4, 1, 5])
write("digits-train-images-idx3-ubyte", 0x803, (5, 4, 3), images)
write("digits-train-labels-idx1-ubyte", 0x801, (5,), labels)
write("t10k-images-idx3-ubyte", 0x803, (2, 4, 3), images[:2] + 1)
write("t10k-labels-idx1-ubyte", 0x801, (2,), labels[:2])
d = ds.MnistDataset(root, usage="train", shuffle=False)
assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 5
rows = list(d.create_tuple_iterator(output_numpy=True))
assert rows[2][0].dtype == np.uint8 and rows[2][0].shape == (4, 3, 1)
assert np.array_equal(rows[2][0][:, :, 0], images[2]) and rows[2][1] == 4 and rows[2][1].dtype == np.uint32
assert ds.MnistDataset(root, "test").get_dataset_size() == 2 and ds.MnistDataset(root).get_dataset_size() == 7
assert ds.MnistDataset(root, "all", num_samples=3).get_dataset_size() == 3
b = ds.MnistDataset(root, "train", shuffle=False).batch(2, drop_remainder=True)
x, y = next(iter(b))
assert x.shape == (2, 4, 3, 1) and x.dtype == ms.uint8 and y.dtype == ms.uint32
assert y.asnumpy().tolist() == [3, 1]
raises(ValueError, lambda: ds.MnistDataset(root + "/missing"), root + "/missing")
os.remove(os.path.join(root, "t10k-labels-idx1-ubyte"))
raises(ValueError, lambda: ds.MnistDataset(root, "test"), root, "t10k-labels-idx1-ubyte")
raises(ValueError, lambda: ds.MnistDataset(root, "validation"), "usage")
)");
}

TEST_CASE("MnistDataset reads the shipped 32x32 digits into a training pipeline")
{
    checkPython("DATA = r'" GRADSTEP_SOURCE_DIR "/samples/data'\n" R"(
import mindspore.dataset.transforms as transforms
import mindspore.dataset.vision as vision
train = ds.MnistDataset(DATA, usage="train", shuffle=False)
assert train.get_dataset_size() == 1500 and ds.MnistDataset(DATA, "test").get_dataset_size() == 297
labels = [int(r["label"]) for r in train.take(10).create_dict_iterator(output_numpy=True)]
assert labels == list(range(10)), labels
ms.set_seed(0)
pipe = ds.MnistDataset(DATA, usage="train")
pipe = pipe.map([vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW()], input_columns="image")
pipe = pipe.map(transforms.TypeCast(ms.int32), input_columns="label").batch(32, drop_remainder=True)
assert pipe.get_dataset_size() == 46 and pipe.get_batch_size() == 32
seen = 0
for image, label in pipe.create_tuple_iterator():
    assert image.shape == (32, 1, 32, 32) and image.dtype == ms.float32 and label.dtype == ms.int32
    a = image.asnumpy()
    assert a.min() >= 0.0 and a.max() <= 1.0
    seen += 1
assert seen == 46
)");
}
