// Primitive classes of mindspore.ops (also mindspore.ops.operations, imported as P): ops.Add(),
// ops.ReduceMean(keep_dims=True), ops.Conv2D(out_channel, kernel_size, ...) are objects that
// hold their attributes and are called on tensors. One C++ base (ops.Primitive) holds the name,
// the attribute dict and the call; each primitive is a Python subclass created here with a
// C++ __init__ that checks its attributes as MindSpore does ("For 'ReduceMean', the 'keep_dims'
// must be bool, but got int."). repr is MindSpore's: Prim[ReduceMean]<keep_dims=False>.
// SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"
#include "python/bind/ops_primitive.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

#include <cctype>

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {

py::object defaultValue(const Default& value)
{
    return std::visit([](const auto& v) -> py::object {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, EmptyTuple>)
            return py::tuple();
        else if constexpr (std::is_same_v<V, Required> || std::is_same_v<V, NoneValue>)
            return py::none();
        else
            return py::cast(v);
    }, value);
}

py::object checkedAttr(const char* op, const AttrSpec& spec, py::handle value)
{
    switch (spec.kind) {
    case Kind::Bool: return py::bool_(boolArg(value, op, spec.name));
    case Kind::Int: return py::int_(intArg(value, op, spec.name));
    case Kind::Float:
        if (PyBool_Check(value.ptr()) || !(PyFloat_Check(value.ptr()) || PyLong_Check(value.ptr())))
            throwArgType(op, spec.name, "float", value);
        return py::float_(value.cast<double>());
    case Kind::Str:
        if (!PyUnicode_Check(value.ptr()))
            throwArgType(op, spec.name, "str", value);
        return py::reinterpret_borrow<py::object>(value);
    case Kind::IntOrTuple: {
        const Axes values = shapeArg(value, op, spec.name);
        if (PyLong_Check(value.ptr()))
            return py::reinterpret_borrow<py::object>(value);
        // Built element by element: this unit has no pybind11/stl.h, so py::cast(Axes) would
        // raise pybind11's "Unregistered type" at the user.
        py::tuple out(values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            out[i] = py::int_(values[i]);
        return out;
    }
    case Kind::DType: return dtypeObject(toDType(value));
    }
    return py::none();
}

void initPrimitive(const PrimSpec& spec, const py::handle& base, const py::object& self, const py::args& args,
                   const py::kwargs& kwargs)
{
    if (args.size() > spec.attrs.size())
        throw py::type_error(std::string(spec.name) + ".__init__() takes " + std::to_string(spec.attrs.size())
                             + " arguments, but " + std::to_string(args.size()) + " were given");
    for (auto item : kwargs) {
        const std::string key = py::str(item.first);
        bool known = false;
        for (const AttrSpec& attr : spec.attrs)
            known = known || key == attr.name;
        if (!known)
            throw py::type_error(std::string(spec.name) + ".__init__() got an unexpected keyword argument '" + key + "'");
    }
    base.attr("__init__")(self, spec.name);
    auto& prim = self.cast<Primitive&>();
    for (std::size_t i = 0; i < spec.attrs.size(); ++i) {
        const AttrSpec& attr = spec.attrs[i];
        py::object given;
        if (i < args.size())
            given = args[i];
        else if (kwargs.contains(attr.name))
            given = kwargs[attr.name];
        else if (std::holds_alternative<Required>(attr.value))
            throw py::type_error(std::string(spec.name) + ".__init__() missing required argument '" + attr.name + "'");
        const bool noneAllowed = std::holds_alternative<NoneValue>(attr.value);
        const py::object value = given && !(noneAllowed && given.is_none()) ? checkedAttr(spec.name, attr, given)
                                                                             : defaultValue(attr.value);
        prim.attrs[attr.name] = value;
        self.attr(attr.name) = value;
    }
    prim.call = spec.call;
}

py::object callPrimitive(const Primitive& prim, const py::args& args, const py::kwargs& kwargs)
{
    if (!kwargs.empty())
        throw py::type_error("For '" + prim.name + "', the inputs must be given positionally.");
    if (!prim.call)
        throw py::type_error("For '" + prim.name + "', the primitive has no implementation in gradstep.");
    return prim.call(prim, args);
}

std::string reprOf(const Primitive& prim)
{
    std::string attrs;
    for (auto item : prim.attrs)
        attrs += (attrs.empty() ? "" : ", ") + std::string(py::str(item.first)) + "=" + std::string(py::str(item.second));
    return "Prim[" + prim.name + "]" + (attrs.empty() ? "" : "<" + attrs + ">");
}

template <Tensor (*Fn)(const Tensor&, const Tensor&)> py::object binaryCall(const Primitive& p, const py::args& a)
{
    auto [x, y] = binaryArgs(a[0], a[1], p.name.c_str());
    return py::cast(Fn(x, y));
}

template <Tensor (*Fn)(const Tensor&)> py::object unaryCall(const Primitive& p, const py::args& a)
{
    return py::cast(Fn(tensorArg(a[0], p.name.c_str(), "x")));
}

Tensor powFn(const Tensor& a, const Tensor& b) { return gradstep::pow(a, b); }

const Tensor& in(const Primitive& p, const py::args& a, std::size_t i, const char* arg)
{
    return tensorArg(a[i], p.name.c_str(), arg);
}

py::object matmulCall(const Primitive& p, const py::args& a)
{
    return py::cast(matmul(in(p, a, 0, "x"), in(p, a, 1, "y"), p.flag("transpose_a"), p.flag("transpose_b")));
}

py::object reduceCall(const Primitive& p, const py::args& a)
{
    const Axes axis = a.size() > 1 ? axesArg(a[1], p.name.c_str(), "axis") : Axes{};
    return py::cast(reduceOp(p.name.c_str(), in(p, a, 0, "x"), axis, p.flag("keep_dims")));
}

py::object softmaxCall(const Primitive& p, const py::args& a)
{
    const Tensor& x = in(p, a, 0, "logits");
    const std::int64_t axis = shapeArg(p.value("axis"), p.name.c_str(), "axis").at(0);
    return py::cast(p.name == "Softmax" ? softmax(x, axis) : logSoftmax(x, axis));
}

py::object argCall(const Primitive& p, const py::args& a)
{
    const Tensor& x = in(p, a, 0, "x");
    const std::int64_t axis = p.integer("axis");
    if (p.name == "ArgMaxWithValue" || p.name == "ArgMinWithValue") {
        const bool isMax = p.name == "ArgMaxWithValue";
        const bool keep = p.flag("keep_dims");
        return py::make_tuple(isMax ? argmax(x, axis, keep) : argmin(x, axis, keep),
                              isMax ? reduceMax(x, {axis}, keep) : reduceMin(x, {axis}, keep));
    }
    const Tensor index = p.name == "Argmax" ? argmax(x, axis) : argmin(x, axis);
    const py::object type = p.value("output_type");
    return py::cast(type.is_none() ? index : cast(index, toDType(type)));
}

py::object shapeCall(const Primitive& p, const py::args& a)
{
    const Tensor& x = in(p, a, 0, "input_x");
    const char* op = p.name.c_str();
    if (p.name == "Reshape")
        return py::cast(reshape(x, shapeArg(a[1], op, "input_shape")));
    if (p.name == "Transpose")
        return py::cast(transpose(x, shapeArg(a[1], op, "input_perm")));
    if (p.name == "ExpandDims")
        return py::cast(expandDims(x, intArg(a[1], op, "axis")));
    if (p.name == "Squeeze")
        return py::cast(squeeze(x, axesArg(p.value("axis"), op, "axis")));
    if (p.name == "Flatten")
        return py::cast(flatten(x));
    if (p.name == "Tile")
        return py::cast(tile(x, shapeArg(a[1], op, "dims")));
    if (p.name == "BroadcastTo")
        return py::cast(broadcastTo(x, shapeArg(p.value("shape"), op, "shape")));
    if (p.name == "Gather")
        return py::cast(gather(x, in(p, a, 1, "input_indices"), intArg(a[2], op, "axis")));
    if (p.name == "Cast")
        return py::cast(cast(x, toDType(a[1])));
    if (p.name == "ZerosLike" || p.name == "OnesLike")
        return py::cast(filledLike(x, p.name == "ZerosLike" ? 0.0 : 1.0, py::none()));
    return py::cast(x); // Identity
}

py::object joinCall(const Primitive& p, const py::args& a)
{
    const TensorList xs = tensorsArg(a[0], p.name.c_str(), "input_x");
    const std::int64_t axis = p.integer("axis");
    return py::cast(p.name == "Concat" ? concat(xs, axis) : stack(xs, axis));
}

py::object selectCall(const Primitive& p, const py::args& a) { return py::cast(whereOp(a[0], a[1], a[2], p.name.c_str())); }

py::object oneHotCall(const Primitive& p, const py::args& a)
{
    return py::cast(oneHotOp(a[0], a[1], a[2], a[3], p.integer("axis"), p.name.c_str()));
}

py::object creationCall(const Primitive& p, const py::args& a)
{
    const char* op = p.name.c_str();
    if (p.name == "Fill")
        return py::cast(filled(shapeArg(a[1], op, "shape"), a[2].cast<double>(), a[0], DType::Float32));
    const py::object dtype = a.size() > 1 ? py::reinterpret_borrow<py::object>(a[1]) : py::none();
    return py::cast(filled(shapeArg(a[0], op, "size"), p.name == "Zeros" ? 0.0 : 1.0, dtype, DType::Float32));
}

void registerPrimitive(py::module_& ops, py::module_& operations, const py::object& base, const PrimSpec& spec)
{
    const PrimSpec* s = &spec;
    // The base is a class of the module, alive as long as the interpreter: a handle is enough.
    const py::handle baseHandle = base;
    py::cpp_function init([s, baseHandle](const py::object& self, const py::args& args, const py::kwargs& kwargs) {
        initPrimitive(*s, baseHandle, self, args, kwargs);
    }, py::name("__init__"), py::is_method(base));
    py::dict ns;
    ns["__init__"] = py::reinterpret_steal<py::object>(PyInstanceMethod_New(init.ptr()));
    ns["__module__"] = "mindspore.ops.operations";
    ns["__doc__"] = std::string("MindSpore's ") + spec.name + " primitive: create it, then call it on tensors.";
    ns["_min_inputs"] = spec.minInputs;
    ns["_max_inputs"] = spec.maxInputs;
    py::object cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(spec.name,
                                                                                                  py::make_tuple(base), ns);
    ops.attr(spec.name) = cls;
    operations.attr(spec.name) = cls;
}

std::vector<PrimSpec> mathPrimitives()
{
    const AttrSpec keepDims{"keep_dims", Kind::Bool, false};
    const AttrSpec axisLast{"axis", Kind::Int, std::int64_t{-1}};
    const AttrSpec axisFirst{"axis", Kind::Int, std::int64_t{0}};
    const AttrSpec int32Out{"output_type", Kind::DType, NoneValue{}};
    return {
        {"Add", {}, 2, 2, &binaryCall<add>},
        {"Sub", {}, 2, 2, &binaryCall<sub>},
        {"Mul", {}, 2, 2, &binaryCall<mul>},
        {"Div", {}, 2, 2, &binaryCall<trueDiv>},
        {"RealDiv", {}, 2, 2, &binaryCall<trueDiv>},
        {"Pow", {}, 2, 2, &binaryCall<powFn>},
        {"Maximum", {}, 2, 2, &binaryCall<maximum>},
        {"Minimum", {}, 2, 2, &binaryCall<minimum>},
        {"Equal", {}, 2, 2, &binaryCall<equal>},
        {"NotEqual", {}, 2, 2, &binaryCall<notEqual>},
        {"Greater", {}, 2, 2, &binaryCall<greater>},
        {"GreaterEqual", {}, 2, 2, &binaryCall<greaterEqual>},
        {"Less", {}, 2, 2, &binaryCall<less>},
        {"LessEqual", {}, 2, 2, &binaryCall<lessEqual>},
        {"Neg", {}, 1, 1, &unaryCall<neg>},
        {"Abs", {}, 1, 1, &unaryCall<gradstep::abs>},
        {"Exp", {}, 1, 1, &unaryCall<gradstep::exp>},
        {"Log", {}, 1, 1, &unaryCall<gradstep::log>},
        {"Sqrt", {}, 1, 1, &unaryCall<gradstep::sqrt>},
        {"Rsqrt", {}, 1, 1, &unaryCall<rsqrt>},
        {"Square", {}, 1, 1, &unaryCall<square>},
        {"Sin", {}, 1, 1, &unaryCall<gradstep::sin>},
        {"Cos", {}, 1, 1, &unaryCall<gradstep::cos>},
        {"Erf", {}, 1, 1, &unaryCall<gradstep::erf>},
        {"Sign", {}, 1, 1, &unaryCall<sign>},
        {"Real", {}, 1, 1, &unaryCall<real>},
        {"Imag", {}, 1, 1, &unaryCall<imag>},
        {"Conj", {}, 1, 1, &unaryCall<conj>},
        {"Complex", {}, 2, 2, &binaryCall<complex>},
        {"ReLU", {}, 1, 1, &unaryCall<relu>},
        {"Sigmoid", {}, 1, 1, &unaryCall<sigmoid>},
        {"Tanh", {}, 1, 1, &unaryCall<gradstep::tanh>},
        {"Softplus", {}, 1, 1, &unaryCall<softplus>},
        {"MatMul", {{"transpose_a", Kind::Bool, false}, {"transpose_b", Kind::Bool, false}}, 2, 2, &matmulCall},
        {"BatchMatMul", {{"transpose_a", Kind::Bool, false}, {"transpose_b", Kind::Bool, false}}, 2, 2, &matmulCall},
        {"Softmax", {{"axis", Kind::IntOrTuple, std::int64_t{-1}}}, 1, 1, &softmaxCall},
        {"LogSoftmax", {{"axis", Kind::IntOrTuple, std::int64_t{-1}}}, 1, 1, &softmaxCall},
        {"ReduceSum", {keepDims}, 1, 2, &reduceCall},
        {"ReduceMean", {keepDims}, 1, 2, &reduceCall},
        {"ReduceMax", {keepDims}, 1, 2, &reduceCall},
        {"ReduceMin", {keepDims}, 1, 2, &reduceCall},
        {"Argmax", {axisLast, int32Out}, 1, 1, &argCall},
        {"Argmin", {axisLast, int32Out}, 1, 1, &argCall},
        {"ArgMaxWithValue", {axisFirst, keepDims}, 1, 1, &argCall},
        {"ArgMinWithValue", {axisFirst, keepDims}, 1, 1, &argCall},
        {"Reshape", {}, 2, 2, &shapeCall},
        {"Transpose", {}, 2, 2, &shapeCall},
        {"ExpandDims", {}, 2, 2, &shapeCall},
        {"Squeeze", {{"axis", Kind::IntOrTuple, EmptyTuple{}}}, 1, 1, &shapeCall},
        {"Flatten", {}, 1, 1, &shapeCall},
        {"Tile", {}, 2, 2, &shapeCall},
        {"BroadcastTo", {{"shape", Kind::IntOrTuple, Required{}}}, 1, 1, &shapeCall},
        {"Gather", {}, 3, 3, &shapeCall},
        {"Cast", {}, 2, 2, &shapeCall},
        {"ZerosLike", {}, 1, 1, &shapeCall},
        {"OnesLike", {}, 1, 1, &shapeCall},
        {"Identity", {}, 1, 1, &shapeCall},
        {"Concat", {axisFirst}, 1, 1, &joinCall},
        {"Stack", {axisFirst}, 1, 1, &joinCall},
        {"Select", {}, 3, 3, &selectCall},
        {"OneHot", {axisLast}, 4, 4, &oneHotCall},
        {"Zeros", {}, 2, 2, &creationCall},
        {"Ones", {}, 2, 2, &creationCall},
        {"Fill", {}, 3, 3, &creationCall},
    };
}

} // namespace

void bindPrimitives(py::module_& ops, py::module_& operations)
{
    py::class_<Primitive> base(ops, "Primitive", py::dynamic_attr(), "Base class of MindSpore's primitive operators.");
    base.def(py::init([](const std::string& name) { return Primitive{name, py::dict(), nullptr}; }), py::arg("name"))
        .def_readonly("name", &Primitive::name)
        .def_property_readonly("attrs", [](const Primitive& p) { return p.attrs; })
        .def("__repr__", &reprOf)
        .def("__call__", [](const py::object& self, const py::args& args, const py::kwargs& kwargs) {
            const auto& prim = self.cast<const Primitive&>();
            const auto lo = self.attr("_min_inputs").cast<std::size_t>();
            const auto hi = self.attr("_max_inputs").cast<std::size_t>();
            if (args.size() < lo || args.size() > hi)
                throw py::type_error("For '" + prim.name + "', the number of inputs must be "
                                     + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi))
                                     + ", but got " + std::to_string(args.size()) + ".");
            return callPrimitive(prim, args, kwargs);
        });
    base.attr("_min_inputs") = 0;
    base.attr("_max_inputs") = 64;
    operations.attr("Primitive") = base;
    // The tables live as long as the process: each class's __init__ keeps a pointer to its entry.
    static const std::vector<PrimSpec> math = mathPrimitives();
    static const std::vector<PrimSpec> nn = nnPrimitives();
    static const std::vector<PrimSpec> comm = commPrimitives();
    for (const auto* table : {&math, &nn, &comm})
        for (const PrimSpec& spec : *table)
            registerPrimitive(ops, operations, base, spec);
    // MindSpore 1.x functional names that are primitive instances (F.reduce_sum(x, axis)).
    for (const char* name : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"}) {
        std::string snake = name;
        snake = "reduce_" + snake.substr(6);
        for (char& c : snake)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        ops.attr(snake.c_str()) = ops.attr(name)();
    }
}

} // namespace gradstep::python::ops
