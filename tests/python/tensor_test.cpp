// mindspore.Tensor from Python: construction and NumPy round trips, operators, methods, indexing,
// printing, conversions and how core errors surface as Python exceptions. Each case is a script
// whose asserts must hold. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import numpy as np\n"
                             "from mindspore import Tensor\n";

/// Runs the prelude plus `body`; the run must succeed.
std::string checkPython(const std::string& body)
{
    return checkRuns(kPrelude + body);
}

} // namespace

TEST_CASE("tensors round-trip NumPy arrays of every dtype exactly")
{
    checkPython(R"(
for dtype, expected in [(np.float32, ms.float32), (np.float64, ms.float64), (np.int32, ms.int32),
                        (np.int64, ms.int64), (np.bool_, ms.bool_)]:
    a = (np.arange(24).reshape(2, 3, 4) % 5).astype(dtype)
    t = Tensor(a)
    assert t.dtype == expected, (t.dtype, expected)
    assert t.shape == (2, 3, 4) and t.ndim == 3 and t.size == 24 and len(t) == 2
    b = t.asnumpy()
    assert b.dtype == a.dtype and (b == a).all()
    assert (np.asarray(t) == a).all() and (np.array(memoryview(t)) == a).all()
big = np.array([2**62 + 1], np.int64)
assert Tensor(big).asnumpy()[0] == 2**62 + 1 and Tensor(big).item() == 2**62 + 1
)");
}

TEST_CASE("tensors from lists and scalars take MindSpore's dtypes, or the one given")
{
    checkPython(R"(
assert Tensor(1.5).dtype == ms.float32 and Tensor(1.5).shape == ()
assert Tensor(3).dtype == ms.int64 and Tensor(True).dtype == ms.bool_
assert Tensor([1.0, 2.0]).dtype == ms.float32 and Tensor([[1, 2], [3, 4]]).dtype == ms.int64
assert Tensor([1, 2], ms.float32).dtype == ms.float32 and Tensor([1, 2], dtype=ms.float64).dtype == ms.float64
assert Tensor(np.float16([1.0])).dtype == ms.float16 and Tensor(np.uint8([1])).dtype == ms.uint8
assert Tensor(np.array([1.7, -1.7]), ms.int32).asnumpy().tolist() == [1, -1]
assert Tensor(Tensor([1.0, 2.0]), ms.int64).dtype == ms.int64
assert Tensor([]).shape == (0,) and Tensor(np.zeros((0, 3))).shape == (0, 3)
assert Tensor(shape=(2, 3), dtype=ms.float32).asnumpy().tolist() == [[0.0] * 3] * 2
assert Tensor((1.0, 2.0), np.float64).dtype == ms.float64
a = np.ones(3, np.float32)
t = Tensor(a)
a[0] = 5.0
assert t.asnumpy()[0] == 1.0, "a tensor keeps its own copy"
)");
}

TEST_CASE("bad tensor inputs raise TypeError or ValueError naming the problem")
{
    checkPython(R"(
def raises(kind, fn, text):
    try:
        fn()
    except kind as e:
        assert text in str(e), str(e)
    else:
        raise AssertionError(f"{fn} did not raise {kind.__name__}")

raises(TypeError, lambda: Tensor(np.array(["a"])), "input_data")
raises(TypeError, lambda: Tensor([1.0], np.longdouble), "float128")
assert Tensor([1.0], np.complex64).dtype == ms.complex64  # complex is a dtype (test_complex.py)
raises(TypeError, lambda: Tensor([1.0], ms.float_), "Float")
raises(ValueError, lambda: Tensor(300, ms.int8), "For 'Tensor', the value 300 is out of the range of Int8: [-128, 127].")
raises(ValueError, lambda: Tensor([1, -1], ms.uint8), "the value -1 is out of the range of UInt8")
raises(ValueError, lambda: Tensor([2**32], dtype=ms.uint32), "out of the range of UInt32")
raises(TypeError, lambda: Tensor([1.0], ms.bfloat16).asnumpy(), "bfloat16")
raises(TypeError, lambda: Tensor([1.0], "nonsense"), "dtype")
raises(ValueError, lambda: Tensor([[1.0], [2.0, 3.0]]), "")
raises(ValueError, lambda: Tensor(), "cannot both be None")
raises(ValueError, lambda: Tensor([1.0, 2.0], shape=(3,)), "does not match")
)");
}

TEST_CASE("operators follow MindSpore: scalars take the tensor's dtype, / is true division, comparisons give bools")
{
    checkPython(R"(
x = Tensor(np.array([1.0, 2.0, 4.0], np.float32))
y = Tensor(np.array([2.0, 2.0, 2.0], np.float32))
assert (x + y).asnumpy().tolist() == [3.0, 4.0, 6.0]
assert (x - y).asnumpy().tolist() == [-1.0, 0.0, 2.0]
assert (x * y).asnumpy().tolist() == [2.0, 4.0, 8.0]
assert (x / y).asnumpy().tolist() == [0.5, 1.0, 2.0]
assert (x ** 2).asnumpy().tolist() == [1.0, 4.0, 16.0]
assert (-x).asnumpy().tolist() == [-1.0, -2.0, -4.0] and (+x) is not None and abs(-x).asnumpy()[2] == 4.0
assert (2 * x).asnumpy().tolist() == [2.0, 4.0, 8.0] and (1 - x).asnumpy().tolist() == [0.0, -1.0, -3.0]
assert (8 / x).asnumpy().tolist() == [8.0, 4.0, 2.0] and (x + 0.5).dtype == ms.float32
assert (x + np.float64(1.0)).dtype == ms.float32
assert (np.ones(3, np.float32) + x).asnumpy().tolist() == [2.0, 3.0, 5.0]
assert isinstance(np.ones(3, np.float32) + x, Tensor)
assert (x + [1.0, 1.0, 1.0]).asnumpy().tolist() == [2.0, 3.0, 5.0]
i = Tensor([1, 2, 3])
assert (i + 1).dtype == ms.int64 and (i * 2).asnumpy().tolist() == [2, 4, 6]
assert (i + 0.5).dtype == ms.float32 and (i / 2).dtype == ms.float32
assert (i / Tensor([2, 2, 2])).asnumpy().tolist() == [0.5, 1.0, 1.5]
assert (Tensor([1, 2], ms.int32) + 1).dtype == ms.int32
assert (Tensor([1, 2], ms.int32) + 2**40).dtype == ms.int64
assert (x + Tensor([1.0], ms.float64)).dtype == ms.float64
c = x > 1.5
assert c.dtype == ms.bool_ and c.asnumpy().tolist() == [False, True, True]
assert (x == y).asnumpy().tolist() == [False, True, False] and (x != y).asnumpy().tolist() == [True, False, True]
assert (x <= 2).asnumpy().tolist() == [True, True, False] and (1.5 < x).asnumpy().tolist() == [False, True, True]
assert (x == None) is False and (x != "a") is True
assert x in {x: 1} and hash(x) != hash(y)
m = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
assert (m @ Tensor(np.ones((3, 2), np.float32))).asnumpy().tolist() == [[3.0, 3.0], [12.0, 12.0]]
assert isinstance(np.ones((2, 2), np.float32) @ m, Tensor) and (np.ones((2, 2), np.float32) @ m).shape == (2, 3)
)");
}

TEST_CASE("a tuple or list of tensors as an operand is stacked, and its gradient reaches each tensor")
{
    checkPython(R"(
from mindspore import ops
a = Tensor(np.array([1.0, 2.0], np.float32))
b = Tensor(np.array([3.0, 4.0], np.float32))
w = Tensor(np.array([10.0, 20.0], np.float32))
s = (a, b) + w
assert s.shape == (2, 2) and s.asnumpy().tolist() == [[11.0, 22.0], [13.0, 24.0]]
assert (w * [a, b]).asnumpy().tolist() == [[10.0, 40.0], [30.0, 80.0]]
assert (((a,), (b,)) - w).shape == (2, 1, 2)
ga, gb = ops.GradOperation(get_all=True)(lambda p, q: ((p, q * 2) * w).sum())(a, b)
assert ga.asnumpy().tolist() == [10.0, 20.0] and gb.asnumpy().tolist() == [20.0, 40.0]
assert ((1.0, 2.0) + w).asnumpy().tolist() == [11.0, 22.0]
)");
}

TEST_CASE("operands that are not numbers fall back to Python's TypeError")
{
    checkPython(R"(
x = Tensor([1.0])
for bad in ("a", object(), {1: 2}):
    try:
        x + bad
    except TypeError as e:
        assert "unsupported operand" in str(e), str(e)
    else:
        raise AssertionError("no TypeError")
)");
}

TEST_CASE("tensors convert to Python numbers only with one element, with MindSpore's messages")
{
    checkPython(R"(
assert float(Tensor([2.5])) == 2.5 and int(Tensor(7.9)) == 7 and int(Tensor(-3)) == -3
assert Tensor(2.5).item() == 2.5 and isinstance(Tensor(3).item(), int) and Tensor(True).item() is True
assert Tensor([[1, 2], [3, 4]]).item(2) == 3 and Tensor([[1, 2], [3, 4]]).item((1, 1)) == 4
assert bool(Tensor([1.0])) and not bool(Tensor(0.0))
assert list(range(Tensor(3))) == [0, 1, 2]
assert f"{Tensor(0.123456):.3f}" == "0.123"
for fn in (float, int, bool, lambda t: t.item()):
    try:
        fn(Tensor([1.0, 2.0]))
    except ValueError as e:
        assert "one element" in str(e) or "more than one element" in str(e), str(e)
    else:
        raise AssertionError("no ValueError")
try:
    if Tensor([1.0, 2.0]) > 0:
        pass
except ValueError as e:
    assert "The truth value of an array with more than one element is ambiguous" in str(e)
else:
    raise AssertionError("no ValueError")
try:
    len(Tensor(1.0))
except TypeError as e:
    assert "0-D" in str(e)
else:
    raise AssertionError("no TypeError")
)");
}

TEST_CASE("repr is MindSpore's, str is NumPy's, and dtypes print as MindSpore names")
{
    const std::string out = checkPython(R"(
print(repr(Tensor(np.array([[1, 2], [3, 4]], np.int32))))
print(Tensor(np.array([1.5, 2.0], np.float32)))
print(ms.float32, repr(ms.int64), ms.bool_, Tensor([1.0]).dtype)
print(ms.dtype_to_nptype(ms.float64).__name__)
)");
    CHECK(out == "Tensor(shape=[2, 2], dtype=Int32, value=\n[[1, 2],\n [3, 4]])\n"
                 "[1.5 2. ]\n"
                 "Float32 Int64 Bool Float32\n"
                 "float64\n");
}

TEST_CASE("tensors iterate over their first axis, copy, and support copy.deepcopy")
{
    checkPython(R"(
import copy
t = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
rows = [r.asnumpy().tolist() for r in t]
assert rows == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], rows
c = t.copy()
assert c.asnumpy().tolist() == t.asnumpy().tolist()
assert copy.deepcopy(t).shape == (3, 2) and copy.copy(t).dtype == ms.float32
try:
    iter(Tensor(1.0))
except TypeError:
    pass
else:
    raise AssertionError("a 0-D tensor iterated")
)");
}

TEST_CASE("shape methods: reshape, view, transpose, T, squeeze, expand_dims, flatten, astype")
{
    checkPython(R"(
t = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
assert t.reshape(6, 4).shape == (6, 4) and t.reshape((4, -1)).shape == (4, 6) and t.view(24).shape == (24,)
assert t.transpose().shape == (4, 3, 2) and t.transpose(1, 0, 2).shape == (3, 2, 4)
assert t.transpose((2, 0, 1)).shape == (4, 2, 3)
assert Tensor(np.ones((2, 5))).T.shape == (5, 2)
assert (t.transpose(1, 0, 2).asnumpy() == np.arange(24).reshape(2, 3, 4).transpose(1, 0, 2)).all()
s = Tensor(np.ones((1, 3, 1)))
assert s.squeeze().shape == (3,) and s.squeeze(0).shape == (3, 1) and s.squeeze((0, 2)).shape == (3,)
assert s.expand_dims(0).shape == (1, 1, 3, 1) and s.expand_dims(-1).shape == (1, 3, 1, 1)
assert t.flatten().shape == (24,) and t.flatten(start_dim=1).shape == (2, 12)
assert Tensor(2.0).flatten().shape == (1,)
assert t.astype(ms.int32).dtype == ms.int32 and t.astype(np.float64).dtype == ms.float64
)");
}

TEST_CASE("reductions: sum, mean, max, min, argmax with axis and keepdims")
{
    checkPython(R"(
a = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)
t = Tensor(a)
assert t.sum().asnumpy() == 21.0 and t.sum(axis=0).asnumpy().tolist() == [5.0, 7.0, 9.0]
assert t.sum(1, keepdims=True).shape == (2, 1) and t.sum(axis=(0, 1)).item() == 21.0
assert t.sum(dtype=ms.float64).dtype == ms.float64 and t.sum(initial=1.0).item() == 22.0
assert t.mean().item() == 3.5 and t.mean(axis=1).asnumpy().tolist() == [3.0, 4.0]
assert t.mean(0, keep_dims=True).shape == (1, 3)
assert t.max().item() == 6.0 and t.min(axis=1).asnumpy().tolist() == [1.0, 2.0]
assert t.max(axis=0, keepdims=True).shape == (1, 3)
assert t.argmax().item() == 5 and t.argmax(axis=1).asnumpy().tolist() == [1, 2]
assert t.argmin(axis=0).asnumpy().tolist() == [0, 1, 0]
)");
}

TEST_CASE("indexing with ints, slices, ellipsis, None, bools, index tensors, lists and masks")
{
    checkPython(R"(
a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
t = Tensor(a)
def same(index):
    got, want = t[index].asnumpy(), a[index]
    assert got.shape == want.shape and (got == want).all(), (index, got, want)
for index in [0, -1, (1, 2), (1, 2, 3), slice(None, None, -1), (slice(None), slice(1, 3)),
              (Ellipsis, 1), (None, 0), (0, None, slice(None, None, 2)), (Ellipsis, None),
              [1, 0], (0, [2, 0, 1]), True, (0, True), False, (1, False)]:
    same(index)
got = t[Tensor(np.array([1, 0], np.int32))].asnumpy()
assert (got == a[[1, 0]]).all()
mask = a[0, 0] > 1.5
assert (t[0, 0][Tensor(mask)].asnumpy() == a[0, 0][mask]).all()
for bad in (2, (0, 3), (0, 0, -5)):
    try:
        t[bad]
    except IndexError as e:
        assert "out of bounds" in str(e), str(e)
    else:
        raise AssertionError(f"t[{bad}] did not raise")
try:
    t["a"]
except IndexError as e:
    assert "str" in str(e)
else:
    raise AssertionError("a str index did not raise")
)");
}

TEST_CASE("core errors reach Python as ValueError and TypeError with the op, shapes and attributes")
{
    checkPython(R"(
try:
    Tensor(np.ones((2, 3), np.float32)) + Tensor(np.ones((4,), np.float32))
except ValueError as e:
    assert "Add" in str(e) and "[2, 3]" in str(e) and "[4]" in str(e), str(e)
else:
    raise AssertionError("no ValueError")
try:
    Tensor(np.ones((2, 3), np.float32)).reshape(4, 2)
except ValueError as e:
    assert "Reshape" in str(e), str(e)
else:
    raise AssertionError("no ValueError")
try:
    Tensor(np.ones((2, 3), np.float32)).sum(axis=5)
except ValueError as e:
    assert "ReduceSum" in str(e), str(e)
else:
    raise AssertionError("no ValueError")
)");
}

TEST_CASE("set_context, get_context and set_seed behave like MindSpore's, on mindspore and mindspore.context")
{
    checkPython(R"(
from mindspore import context
assert ms.get_context("mode") == ms.PYNATIVE_MODE == 1 and ms.GRAPH_MODE == 0
ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
assert context.get_context("mode") == context.GRAPH_MODE and ms.get_context("device_target") == "CPU"
context.set_context(mode=context.PYNATIVE_MODE)
assert ms.get_context("mode") == 1
try:
    ms.set_context(mode=5)
except ValueError as e:
    assert "mode" in str(e)
else:
    raise AssertionError("no ValueError")
ms.set_seed(3)
first = np.random.rand()
ms.set_seed(3)
assert np.random.rand() == first and ms.get_seed() == 3
for bad, kind in ((-1, ValueError), (1.5, TypeError)):
    try:
        ms.set_seed(bad)
    except kind:
        pass
    else:
        raise AssertionError(f"set_seed({bad}) did not raise")
)");
}

TEST_CASE("context settings do not leak from one run into the next")
{
    checkPython("ms.set_context(mode=ms.GRAPH_MODE)\n");
    checkPython("assert ms.get_context('mode') == ms.PYNATIVE_MODE\n");
}
