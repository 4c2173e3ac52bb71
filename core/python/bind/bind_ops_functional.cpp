// mindspore.ops functional math (MindSpore 2.x names and argument names): arithmetic with Python
// scalars typed as the Tensor operators type them, unary math, activations, comparisons, logical
// ops, matmul / bmm and reductions. Array ops are in bind_ops_array.cpp, nn functions in
// bind_ops_nn.cpp, primitive classes in bind_ops_primitives.cpp; bindOps assembles them and the
// mindspore.ops.functional / mindspore.ops.operations aliases. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace py = pybind11;

namespace gradstep::python {

namespace ops {

namespace {

using Unary = Tensor (*)(const Tensor&);
using Binary = Tensor (*)(const Tensor&, const Tensor&);

template <Unary Fn> void unary(py::module_& m, const char* name, const char* op, const char* arg = "input")
{
    m.def(name, [op, arg](py::handle x) { return Fn(tensorArg(x, op, arg)); }, py::arg(arg));
}

template <Binary Fn> void binary(py::module_& m, const char* name, const char* op)
{
    m.def(name, [op](py::handle a, py::handle b) {
        auto [x, y] = binaryArgs(a, b, op);
        return Fn(x, y);
    }, py::arg("input"), py::arg("other"));
}

Tensor powOp(const Tensor& a, const Tensor& b) { return gradstep::pow(a, b); }
Tensor matmulOp(const Tensor& a, const Tensor& b) { return matmul(a, b); }

Tensor asBool(const Tensor& x) { return x.dtype() == DType::Bool ? x : notEqual(x, Tensor::scalar(0.0, x.dtype())); }
Tensor logicalNot(const Tensor& x) { return equal(asBool(x), Tensor::scalar(0.0, DType::Bool)); }
Tensor logicalAnd(const Tensor& a, const Tensor& b) { return select(asBool(a), asBool(b), Tensor::scalar(0.0, DType::Bool)); }
Tensor logicalOr(const Tensor& a, const Tensor& b) { return select(asBool(a), Tensor::scalar(1.0, DType::Bool), asBool(b)); }

void bindArithmetic(py::module_& m)
{
    binary<add>(m, "add", "Add");
    binary<sub>(m, "sub", "Sub");
    binary<mul>(m, "mul", "Mul");
    m.def("div", [](py::handle a, py::handle b, py::handle roundingMode) {
        if (!roundingMode.is_none())
            throw py::value_error("For 'div', rounding_mode " + std::string(py::repr(roundingMode))
                                  + " is not supported; only None (true division) is.");
        auto [x, y] = binaryArgs(a, b, "Div");
        return trueDiv(x, y);
    }, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("rounding_mode") = py::none());
    binary<powOp>(m, "pow", "Pow");
    binary<maximum>(m, "maximum", "Maximum");
    binary<minimum>(m, "minimum", "Minimum");
    unary<neg>(m, "neg", "Neg");
    unary<gradstep::abs>(m, "abs", "Abs");
    unary<gradstep::exp>(m, "exp", "Exp");
    unary<gradstep::log>(m, "log", "Log");
    unary<gradstep::sqrt>(m, "sqrt", "Sqrt", "x");
    unary<rsqrt>(m, "rsqrt", "Rsqrt");
    unary<square>(m, "square", "Square");
    unary<gradstep::sin>(m, "sin", "Sin");
    unary<gradstep::cos>(m, "cos", "Cos");
    unary<gradstep::tanh>(m, "tanh", "Tanh", "input_x");
    unary<gradstep::erf>(m, "erf", "Erf");
    unary<sign>(m, "sign", "Sign");
    unary<real>(m, "real", "Real");
    unary<imag>(m, "imag", "Imag");
    unary<conj>(m, "conj", "Conj");
    m.def("complex", [](py::handle re, py::handle im) {
        return complex(tensorArg(re, "Complex", "real"), tensorArg(im, "Complex", "imag"));
    }, py::arg("real"), py::arg("imag"));
    unary<gradstep::round>(m, "round", "Round");
    unary<sigmoid>(m, "sigmoid", "Sigmoid");
    unary<relu>(m, "relu", "ReLU");
    unary<softplus>(m, "softplus", "Softplus");
    m.def("gelu", [](py::handle x, const std::string& approximate) {
        if (approximate != "none" && approximate != "tanh")
            throw py::value_error("For 'gelu', 'approximate' must be 'none' or 'tanh', but got '" + approximate + "'.");
        return gelu(tensorArg(x, "GeLU", "input_x"), approximate == "tanh");
    }, py::arg("input_x"), py::arg("approximate") = "none");
    m.def("leaky_relu", [](py::handle x, double alpha) { return leakyRelu(tensorArg(x, "LeakyReLU", "input"), alpha); },
          py::arg("input"), py::arg("alpha") = 0.2);
    m.def("softmax", [](py::handle x, py::handle axis, py::handle dtype) {
        const Tensor& t = tensorArg(x, "Softmax", "input");
        return softmax(dtype.is_none() ? t : cast(t, toDType(dtype)), intArg(axis, "Softmax", "axis"));
    }, py::arg("input"), py::arg("axis") = -1, py::kw_only(), py::arg("dtype") = py::none());
    m.def("log_softmax", [](py::handle x, py::handle axis) {
        return logSoftmax(tensorArg(x, "LogSoftmax", "logits"), intArg(axis, "LogSoftmax", "axis"));
    }, py::arg("logits"), py::arg("axis") = -1);
}

void bindSelection(py::module_& m)
{
    m.def("clip_by_value", [](py::handle x, py::handle low, py::handle high) {
        return clipValue(tensorArg(x, "clip_by_value", "x"), low, high, "clip_by_value");
    }, py::arg("x"), py::arg("clip_value_min") = py::none(), py::arg("clip_value_max") = py::none());
    for (const char* name : {"clamp", "clip"})
        m.def(name, [name](py::handle x, py::handle low, py::handle high) {
            return clipValue(tensorArg(x, name, "input"), low, high, name);
        }, py::arg("input"), py::arg("min") = py::none(), py::arg("max") = py::none());
    m.def("where", [](py::handle c, py::handle x, py::handle y) { return whereOp(c, x, y, "where"); },
          py::arg("condition"), py::arg("input"), py::arg("other"));
    m.def("select", [](py::handle c, py::handle x, py::handle y) { return whereOp(c, x, y, "Select"); },
          py::arg("cond"), py::arg("x"), py::arg("y"));
}

void bindComparisons(py::module_& m)
{
    binary<equal>(m, "equal", "Equal");
    binary<notEqual>(m, "not_equal", "NotEqual");
    binary<notEqual>(m, "ne", "NotEqual");
    binary<greater>(m, "greater", "Greater");
    binary<greater>(m, "gt", "Greater");
    binary<greaterEqual>(m, "greater_equal", "GreaterEqual");
    binary<greaterEqual>(m, "ge", "GreaterEqual");
    binary<less>(m, "less", "Less");
    binary<less>(m, "lt", "Less");
    binary<lessEqual>(m, "less_equal", "LessEqual");
    binary<lessEqual>(m, "le", "LessEqual");
    unary<logicalNot>(m, "logical_not", "LogicalNot");
    binary<logicalAnd>(m, "logical_and", "LogicalAnd");
    binary<logicalOr>(m, "logical_or", "LogicalOr");
    binary<matmulOp>(m, "matmul", "MatMul");
    m.def("bmm", [](py::handle a, py::handle b) {
        const Tensor& x = tensorArg(a, "BatchMatMul", "input_x");
        const Tensor& y = tensorArg(b, "BatchMatMul", "mat2");
        if (x.rank() < 3 || y.rank() < 3)
            throw py::value_error("For 'BatchMatMul', both inputs must have at least 3 dimensions, but got "
                                  + x.shape().toString() + " and " + y.shape().toString() + ".");
        return matmul(x, y);
    }, py::arg("input_x"), py::arg("mat2"));
}

/// max / min: (values, indices) along axis; over every element when axis is None.
py::tuple valuesAndIndices(const Tensor& x, py::handle axis, bool keepDims, bool isMax)
{
    const char* op = isMax ? "max" : "min";
    if (axis.is_none()) {
        const Tensor flat = reshape(x, {-1});
        return py::make_tuple(isMax ? reduceMax(x) : reduceMin(x), isMax ? argmax(flat, 0) : argmin(flat, 0));
    }
    const std::int64_t a = intArg(axis, op, "axis");
    const Tensor values = isMax ? reduceMax(x, {a}, keepDims) : reduceMin(x, {a}, keepDims);
    return py::make_tuple(values, isMax ? argmax(x, a, keepDims) : argmin(x, a, keepDims));
}

Tensor argIndex(py::handle x, py::handle axis, py::handle keepDims, bool isMax)
{
    const char* op = isMax ? "Argmax" : "Argmin";
    const Tensor& t = tensorArg(x, op, "input");
    const bool keep = boolArg(keepDims, op, "keepdims");
    if (axis.is_none())
        return isMax ? argmax(reshape(t, {-1}), 0) : argmin(reshape(t, {-1}), 0);
    const std::int64_t a = intArg(axis, op, "axis");
    return isMax ? argmax(t, a, keep) : argmin(t, a, keep);
}

void bindReductions(py::module_& m)
{
    m.def("sum", [](py::handle x, py::handle dim, py::handle keepDim, py::handle dtype) {
        const Tensor& t = tensorArg(x, "sum", "input");
        return reduceSum(dtype.is_none() ? t : cast(t, toDType(dtype)), axesArg(dim, "sum", "dim"),
                         boolArg(keepDim, "sum", "keepdim"));
    }, py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("dtype") = py::none());
    m.def("mean", [](py::handle x, py::handle axis, py::handle keepDims) {
        return reduceMean(tensorArg(x, "mean", "input"), axesArg(axis, "mean", "axis"),
                          boolArg(keepDims, "mean", "keep_dims"));
    }, py::arg("input"), py::arg("axis") = py::none(), py::arg("keep_dims") = false);
    m.def("norm", [](py::handle x, py::handle ord, py::handle dim, py::handle keepDim, py::handle dtype) {
        Tensor t = tensorArg(x, "norm", "A");
        if (!dtype.is_none())
            t = cast(t, toDType(dtype));
        return normOp(t, ord, dim, boolArg(keepDim, "norm", "keepdim"));
    }, py::arg("A"), py::arg("ord") = py::none(), py::arg("dim") = py::none(), py::arg("keepdim") = false,
          py::kw_only(), py::arg("dtype") = py::none());
    for (bool isMax : {true, false}) {
        const char* name = isMax ? "amax" : "amin";
        m.def(name, [name, isMax](py::handle x, py::handle axis, py::handle keepDims) {
            return reduceOp(isMax ? "ReduceMax" : "ReduceMin", tensorArg(x, name, "input"), axesArg(axis, name, "axis"),
                            boolArg(keepDims, name, "keepdims"));
        }, py::arg("input"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
        m.def(isMax ? "max" : "min", [isMax](py::handle x, py::handle axis, py::handle keepDims) {
            const char* op = isMax ? "max" : "min";
            return valuesAndIndices(tensorArg(x, op, "input"), axis, boolArg(keepDims, op, "keepdims"), isMax);
        }, py::arg("input"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
    }
    m.def("argmax", [](py::handle x, py::handle dim, py::handle keepDim) { return argIndex(x, dim, keepDim, true); },
          py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false);
    m.def("argmin", [](py::handle x, py::handle axis, py::handle keepDims) { return argIndex(x, axis, keepDims, false); },
          py::arg("input"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
}

/// Module-level __getattr__ (PEP 562) for the alias modules: names bound on mindspore.ops later
/// (by other bind files) are found through it too.
void aliasOf(py::module_& alias)
{
    const std::string aliasName = py::str(alias.attr("__name__"));
    alias.def("__getattr__", [aliasName](const std::string& name) -> py::object {
        // Looked up by name, not captured: a captured module would make a reference cycle.
        py::module_ ops = py::module_::import("mindspore.ops");
        if (name.rfind("__", 0) != 0 && py::hasattr(ops, name.c_str()))
            return ops.attr(name.c_str());
        throw py::attribute_error("module '" + aliasName + "' has no attribute '" + name + "'");
    });
}

} // namespace

void bindMath(py::module_& ops)
{
    bindArithmetic(ops);
    bindSelection(ops);
    bindComparisons(ops);
    bindReductions(ops);
}

} // namespace ops

void bindOps(py::module_& opsModule)
{
    py::module_ functional = opsModule.def_submodule("functional", "mindspore.ops.functional (imported as F)");
    py::module_ operations = opsModule.def_submodule("operations", "mindspore.ops.operations (imported as P)");
    ops::bindMath(opsModule);
    ops::bindArray(opsModule);
    ops::bindNnFunctional(opsModule);
    ops::bindFusedNn(opsModule);
    ops::bindPrimitives(opsModule, operations);
    ops::aliasOf(functional);
    ops::aliasOf(operations);
}

} // namespace gradstep::python
