// Python operators on mindspore.Tensor: + - * / ** @, unary - + abs, and the six comparisons,
// each with its reflected form, so `2 * x`, `1 - x` and `x < 0.5` work. The other operand may be
// a Tensor, a Python or NumPy scalar (typed as MindSpore types it, see toOperand), a NumPy array
// or a list; anything else gives NotImplemented and Python's own TypeError.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

using Binary = Tensor (*)(const Tensor&, const Tensor&);

py::object notImplemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

template <Binary Op> py::object forward(const Tensor& self, py::handle other)
{
    std::optional<Tensor> operand = toOperand(other, self);
    return operand ? py::cast(Op(self, *operand)) : notImplemented();
}

template <Binary Op> py::object reflected(const Tensor& self, py::handle other)
{
    std::optional<Tensor> operand = toOperand(other, self);
    return operand ? py::cast(Op(*operand, self)) : notImplemented();
}

/// `/` is true division: MindSpore divides integer tensors as Float32 (ops.div's rule).
Tensor trueDivide(const Tensor& a, const Tensor& b) { return ops::trueDiv(a, b); }

Tensor power(const Tensor& a, const Tensor& b) { return gradstep::pow(a, b); }
Tensor matrixProduct(const Tensor& a, const Tensor& b) { return matmul(a, b); }

} // namespace

void bindTensorOperators(TensorClass& cls)
{
    cls.def("__add__", &forward<add>).def("__radd__", &reflected<add>)
        .def("__sub__", &forward<sub>).def("__rsub__", &reflected<sub>)
        .def("__mul__", &forward<mul>).def("__rmul__", &reflected<mul>)
        .def("__truediv__", &forward<trueDivide>).def("__rtruediv__", &reflected<trueDivide>)
        .def("__pow__", &forward<power>).def("__rpow__", &reflected<power>)
        .def("__matmul__", &forward<matrixProduct>).def("__rmatmul__", &reflected<matrixProduct>)
        .def("__eq__", &forward<equal>).def("__ne__", &forward<notEqual>)
        .def("__lt__", &forward<less>).def("__le__", &forward<lessEqual>)
        .def("__gt__", &forward<greater>).def("__ge__", &forward<greaterEqual>)
        .def("__neg__", [](const Tensor& x) { return neg(x); })
        .def("__pos__", [](const Tensor& x) { return x; })
        .def("__abs__", [](const Tensor& x) { return gradstep::abs(x); });
}

} // namespace gradstep::python
