// mindspore.Parameter and ParameterTuple from Python: construction, names, in-place updates seen
// through every handle, set_data, repr, and the type checks. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

void checkPython(const std::string& body)
{
    checkRuns("import mindspore as ms\nimport numpy as np\nfrom mindspore import Tensor, Parameter, ParameterTuple\n"
              + body);
}

} // namespace

TEST_CASE("parameters are tensors with a name and a requires_grad flag")
{
    checkPython(R"PY(
w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
assert isinstance(w, Tensor) and isinstance(w, ms.Parameter) and w.name == "w" and w.requires_grad
assert repr(w) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)", repr(w)
assert (w.asnumpy() == [1.0, 2.0]).all() and (w * 2).asnumpy().tolist() == [2.0, 4.0]
w.name = "fc.weight"
assert w.name == "fc.weight"
b = Parameter(np.zeros((2, 3)), requires_grad=False)
assert b.name == "Parameter" and not b.requires_grad and b.dtype == ms.float64
assert ms.common.Parameter is Parameter
)PY");
}

TEST_CASE("set_data replaces a parameter's value and every handle sees it")
{
    checkPython(R"PY(
w = Parameter(Tensor([1.0, 2.0]), name="w")
same = w.data
assert same is w
w.set_data(Tensor([[3.0, 4.0, 5.0]]), slice_shape=True)
assert w.shape == (1, 3) and w.asnumpy().tolist() == [[3.0, 4.0, 5.0]]
c = w.clone()
c.set_data(Tensor([0.0]), slice_shape=True)
assert w.shape == (1, 3) and c.name == "w"
)PY");
}

TEST_CASE("ParameterTuple is a tuple of parameters and refuses anything else")
{
    checkPython(R"PY(
a = Parameter(Tensor([1.0]), name="a")
b = Parameter(Tensor([2.0]), name="b")
t = ParameterTuple([a, b])
assert isinstance(t, tuple) and len(t) == 2 and [p.name for p in t] == ["a", "b"]
assert type(t).__name__ == "ParameterTuple" and ParameterTuple() == ()
try:
    ParameterTuple([a, Tensor([1.0])])
except TypeError as e:
    assert "item 1" in str(e) and "Tensor" in str(e), str(e)
else:
    raise AssertionError("no TypeError")
# MindSpore: integer Parameters exist and require grad by default.
i = Parameter(Tensor([1, 2]), name="i")
assert i.requires_grad and i.dtype == ms.int64, (i.requires_grad, i.dtype)
assert not Parameter(Tensor([1, 2]), name="step", requires_grad=False).requires_grad
)PY");
}
