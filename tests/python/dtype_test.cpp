// Every MindSpore dtype from Python: dtype objects and aliases, NumPy round trips, casts,
// scalar promotion, dtype_to_nptype / pytype_to_dtype / dtype_to_pytype, integer Parameters
// and gradients through integer tensors. Each case is a script whose asserts must hold.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python::test;

namespace {

const std::string kPrelude = "import mindspore as ms\n"
                             "import numpy as np\n"
                             "from mindspore import Tensor, Parameter, ops\n"
                             "from mindspore.common import dtype as mstype\n"
                             "NUMPY = [(np.bool_, ms.bool_), (np.int8, ms.int8), (np.int16, ms.int16),\n"
                             "         (np.int32, ms.int32), (np.int64, ms.int64), (np.uint8, ms.uint8),\n"
                             "         (np.uint16, ms.uint16), (np.uint32, ms.uint32), (np.uint64, ms.uint64),\n"
                             "         (np.float16, ms.float16), (np.float32, ms.float32), (np.float64, ms.float64)]\n";

std::string checkPython(const std::string& body) { return checkRuns(kPrelude + body); }

} // namespace

TEST_CASE("NumPy arrays of every dtype round-trip keeping dtype and bits")
{
    checkPython(R"(
for np_type, ms_type in NUMPY:
    a = (np.arange(24).reshape(2, 3, 4) % 7).astype(np_type)
    t = Tensor(a)
    assert t.dtype == ms_type, (np_type, t.dtype)
    b = t.asnumpy()
    assert b.dtype == a.dtype and b.shape == a.shape and b.tobytes() == a.tobytes(), np_type
    s = Tensor(np_type(1))
    assert s.dtype == ms_type and s.shape == (), (np_type, s.dtype)
    assert s.item() == 1 and type(s.item()) is ms.dtype_to_pytype(ms_type), (np_type, s.item())
    assert np.asarray(memoryview(t)).tobytes() == a.tobytes(), np_type  # buffer protocol
    t2 = Tensor(a)
    t2[0, 0, 0] = 5
    assert t2.asnumpy()[0, 0, 0] == np_type(5) and t2.dtype == ms_type, np_type
h = Tensor(np.array([65504, 65520, 1e-8, np.nan], np.float32), ms.float16).asnumpy()
assert h.dtype == np.float16 and h[0] == 65504 and np.isinf(h[1]) and h[2] == 0 and np.isnan(h[3]), h
assert str(ms.uint8) == "UInt8" and repr(ms.bfloat16) == "BFloat16" and str(ms.float16) == "Float16"
)");
}

TEST_CASE("bfloat16 tensors are made from Python or NumPy values and read back through float32")
{
    checkPython(R"(
b = Tensor([1.0, 1.00390625, 3.0e38], ms.bfloat16)
assert str(Tensor([1.5, -2.0], ms.bfloat16)) == "[ 1.5 -2. ]", str(Tensor([1.5, -2.0], ms.bfloat16))
assert "dtype=BFloat16" in repr(b)
assert b.dtype == ms.bfloat16 and b.itemsize == 2 and b.nbytes == 6
f = b.astype(ms.float32).asnumpy()
assert f.tolist() == [1.0, 1.0, 3.00405527047391e+38], f.tolist()  # 0x7F62
try:
    b.asnumpy()
except TypeError as e:
    assert "bfloat16" in str(e), str(e)
else:
    raise AssertionError("asnumpy of bfloat16 did not raise")
try:
    ms.dtype_to_nptype(ms.bfloat16)
except TypeError as e:
    assert "bfloat16" in str(e), str(e)
else:
    raise AssertionError("dtype_to_nptype(bfloat16) did not raise")
)");
}

TEST_CASE("every dtype and alias is on mindspore and mindspore.common.dtype")
{
    checkPython(R"(
names = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "float32", "float64", "bfloat16"]
for n in names:
    assert getattr(ms, n) is getattr(mstype, n), n
assert ms.half == ms.float16 and ms.single == ms.float32 and ms.double == ms.float64
assert mstype.byte == ms.int8 and mstype.short == ms.int16 and mstype.intc == ms.int32
assert mstype.ubyte == ms.uint8 and mstype.ushort == ms.uint16 and mstype.uintp == ms.uint64
assert str(ms.float_) == "Float" and str(ms.int_) == "Int" and str(ms.uint) == "UInt"
assert ms.float_ != ms.float32 and ms.float16 in mstype.float_type and ms.uint8 in mstype.uint_type
)");
}

TEST_CASE("dtype_to_nptype, pytype_to_dtype and dtype_to_pytype cover every dtype")
{
    checkPython(R"(
for np_type, ms_type in NUMPY:
    assert ms.dtype_to_nptype(ms_type) is np_type, (ms_type, ms.dtype_to_nptype(ms_type))
    assert ms.pytype_to_dtype(np_type) == ms_type and ms.pytype_to_dtype(np.dtype(np_type)) == ms_type
    expected = bool if ms_type == ms.bool_ else float if np_type in (np.float16, np.float32, np.float64) else int
    assert ms.dtype_to_pytype(ms_type) is expected, ms_type
assert ms.dtype_to_pytype(ms.bfloat16) is float
assert ms.pytype_to_dtype(int) == ms.int64 and ms.pytype_to_dtype(float) == ms.float64
assert ms.pytype_to_dtype(bool) == ms.bool_ and ms.pytype_to_dtype(ms.int8) == ms.int8
try:
    ms.pytype_to_dtype("x")
except TypeError as e:
    assert "cannot be converted to MindSpore type" in str(e), str(e)
else:
    raise AssertionError("no TypeError")
)");
}

TEST_CASE("Tensor(x, dtype), astype and ops.cast reach every dtype")
{
    checkPython(R"(
for np_type, ms_type in NUMPY:
    t = Tensor([0, 1, 2], ms_type)
    assert t.dtype == ms_type and t.asnumpy().dtype == np_type
    assert Tensor([3.0, 1.0]).astype(ms_type).dtype == ms_type
    c = ops.cast(Tensor([3, 1]), ms_type)
    assert c.dtype == ms_type and c.asnumpy().tolist() == ([True, True] if ms_type == ms.bool_ else [3, 1])
assert ops.cast(Tensor([300.0, -1.0]), ms.uint8).asnumpy().tolist() == [44, 255]
assert Tensor([2**64 - 1], ms.uint64).item() == 2**64 - 1
assert Tensor([1, 2], ms.bfloat16).astype(ms.int8).asnumpy().tolist() == [1, 2]
)");
}

TEST_CASE("tensor-scalar and tensor-tensor ops promote as MindSpore does")
{
    checkPython(R"(
i8 = Tensor([100], ms.int8)
assert (i8 + 100).dtype == ms.int8 and (i8 + 100).asnumpy().tolist() == [-56]
assert (i8 + 1.5).dtype == ms.float32 and (i8 + 1.5).asnumpy().tolist() == [101.5]
h = Tensor([1.0], ms.float16)
assert (h * 2.5).dtype == ms.float16 and (h + 1).dtype == ms.float16
assert (Tensor([1], ms.uint8) + Tensor([1], ms.int8)).dtype == ms.int16
assert (h + Tensor([1.0], ms.bfloat16)).dtype == ms.float32
assert (Tensor([1], ms.int32) + h).dtype == ms.float16
u = Tensor([1], ms.uint8) - Tensor([2], ms.uint8)
assert u.dtype == ms.uint8 and u.asnumpy().tolist() == [255]
assert (Tensor([1], ms.uint8) + 1000).dtype == ms.int64
assert (Tensor([True]) + 1).dtype == ms.int32 and (Tensor([True]) + 1.0).dtype == ms.float32
assert (Tensor([1], ms.int64) + (2**62 + 1)).asnumpy().tolist() == [2**62 + 2]
assert (Tensor([1], ms.uint64) + (2**64 - 2)).asnumpy().tolist() == [2**64 - 1]
try:
    ops.sqrt(Tensor([4], ms.int8))
except TypeError as e:
    assert str(e) == "For 'Sqrt', the type of 'x' should be Tensor[Float16, BFloat16, Float32, Float64, Complex64, Complex128], but got Tensor[Int8].", str(e)
else:
    raise AssertionError("no TypeError")
)");
}

TEST_CASE("integer Parameters require grad and gradients pass through integer casts")
{
    checkPython(R"(
p = Parameter(Tensor(1, mstype.int32), name="step")
assert p.dtype == ms.int32 and p.requires_grad
def f(x):
    return ops.cast(ops.cast(x * 3.0, ms.int32), ms.float32).sum()
g = ms.grad(f)(Tensor([1.0, 2.0]))
assert g.dtype == ms.float32 and g.asnumpy().tolist() == [3.0, 3.0], g
def sq(x):
    return (x * x).sum()
gi = ms.grad(sq)(Tensor([3, -4], ms.int32))
assert gi.dtype == ms.int32 and gi.asnumpy().tolist() == [6, -8], gi
def h(x):
    return (x * 0.5).sum()
gh = ms.grad(h)(Tensor([1.0, 2.0], ms.float16))
assert gh.dtype == ms.float16 and gh.asnumpy().tolist() == [0.5, 0.5], gh
)");
}

TEST_CASE("graph mode computes storage dtypes and differentiates integers as PyNative does")
{
    checkPython(R"(
from mindspore import jit
@jit
def f(x, y):
    return x * y + 1
r = f(Tensor([2048, 1], ms.float16), Tensor([1, 3], ms.float16))
assert r.dtype == ms.float16 and r.asnumpy().tolist() == [2048.0, 4.0], r
i = f(Tensor([100], ms.int8), Tensor([2], ms.int8))
assert i.dtype == ms.int8 and i.asnumpy().tolist() == [-55], i
@jit
def sq(x):
    return (x * x).sum()
@jit
def c(x):
    return ops.cast(ops.cast(x * 3.0, ms.int32), ms.float32).sum()
gi = ms.grad(sq)(Tensor([3, -4], ms.int32))
assert gi.dtype == ms.int32 and gi.asnumpy().tolist() == [6, -8], gi
assert ms.grad(c)(Tensor([1.0, 2.0])).asnumpy().tolist() == [3.0, 3.0]
)");
}
