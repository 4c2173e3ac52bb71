// mindspore.grad / value_and_grad / get_grad, mindspore.ops.grad / value_and_grad /
// GradOperation / stop_gradient (SEMANTICS.md §1, §2, §5.2) over core/api/grad.h. The argument
// checks the C++ types cannot express (bools, lists, non-ints as grad_position) raise
// MindSpore's TypeErrors here; everything else, and the texts of the core's errors, come from
// the core. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/grad_adapter.h"
#include "python/host/run_context.h"
#include "python/jit/jit_compiler.h"
#include "python/jit/jit_runtime.h"
#include "python/bind/value_convert.h"

#include "api/grad.h"
#include "ops/autodiff_ops.h"

#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

std::string typeName(py::handle object)
{
    return py::str(py::type::handle_of(object).attr("__name__"));
}

bool isInt(py::handle object) { return PyLong_Check(object.ptr()) != 0; }

// _convert_grad_position_type: a bool counts as an int (True is position 1), in a tuple too.
GradPosition toGradPosition(py::handle position)
{
    if (position.is_none())
        return {};
    if (isInt(position))
        return position.cast<std::int64_t>();
    if (!PyTuple_Check(position.ptr()))
        throw py::type_error("For 'F.grad', the 'grad_position' must be int or tuple.");
    std::vector<std::int64_t> positions;
    for (py::handle item : py::reinterpret_borrow<py::tuple>(position)) {
        if (!isInt(item))
            throw py::type_error("For 'F.grad', the element in 'grad_position' must be int.");
        positions.push_back(item.cast<std::int64_t>());
    }
    return positions;
}

Weights toWeights(py::handle weights, const std::string& api)
{
    if (weights.is_none())
        return {};
    std::vector<Parameter> list = toParameters(weights, "For '" + api + "', 'weights'");
    if (PyTuple_Check(weights.ptr()) || PyList_Check(weights.ptr()))
        return list;
    return list.front();
}

bool toFlag(py::handle value, const std::string& api, const std::string& name)
{
    if (!PyBool_Check(value.ptr()))
        throw py::type_error("For '" + api + "', the '" + name + "' should be bool, but got "
                             + typeName(value) + ".");
    return value.ptr() == Py_True;
}

std::vector<std::int64_t> positionList(const GradPosition& position)
{
    if (const auto* i = std::get_if<std::int64_t>(&position))
        return {*i};
    if (const auto* tuple = std::get_if<std::vector<std::int64_t>>(&position))
        return *tuple;
    return {};
}

/// A gradient function as a Python callable: call(args, kwargs) runs it.
template <typename Call>
py::cpp_function gradientFunction(Call call)
{
    return py::cpp_function(
        [call](const py::args& args, const py::kwargs& kwargs) { return call(args, kwargs); },
        py::name("grad_fn"));
}

// return_ids (grad only in 2.2): each gradient leaf becomes (id, grad), the position for input
// gradients and the Parameter's name for weight gradients; the nesting stays as it was.
py::object pair(py::object id, const Value& grad)
{
    return py::make_tuple(std::move(id), toPython(grad));
}

py::object positionIds(const Value& grads, const std::vector<std::int64_t>& positions)
{
    if (positions.empty())
        return py::tuple();
    if (positions.size() == 1)
        return pair(py::int_(positions[0]), grads);
    py::tuple out(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        out[i] = pair(py::int_(positions[i]), grads[i]);
    return out;
}

py::object weightIds(const Value& grads, const Weights& weights)
{
    if (const auto* single = std::get_if<Parameter>(&weights))
        return pair(py::str(single->name()), grads);
    const auto& list = std::get<std::vector<Parameter>>(weights);
    py::tuple out(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        out[i] = pair(py::str(list[i].name()), grads[i]);
    return out;
}

// `args`: the call's; positions holding no Tensor have no gradient (effectiveRequest).
py::object withIds(const Value& grads, const GradPosition& position, const Weights& weights, const py::args& args)
{
    std::vector<std::int64_t> positions = positionList(position);
    std::erase_if(positions, [&](std::int64_t p) {
        return p >= static_cast<std::int64_t>(args.size()) || !asTensor(args[static_cast<std::size_t>(p)]);
    });
    if (std::holds_alternative<std::monostate>(position))
        return weightIds(grads, weights);
    if (std::holds_alternative<std::monostate>(weights))
        return positionIds(grads, positions);
    return py::make_tuple(positionIds(grads[0], positions), weightIds(grads[1], weights));
}

struct GradSettings {
    GradPosition position;
    Weights weights;
    bool hasAux = false;
    bool returnIds = false;
    bool withValue = false; ///< value_and_grad: fn's output comes back with the gradients
    GradApiOverride api = GradApiOverride::AsWritten;
};

py::object runGradCall(const py::object& fn, const GradSettings& s, const std::string& api,
                       const py::args& args, const py::kwargs& kwargs)
{
    PythonCall call(fn, args, kwargs, api, false);
    const auto graphMode = graphGradient(fn, args, kwargs, false, api);
    Value out;
    if (s.withValue && s.api == GradApiOverride::GradFallback)
        out = fallbackValueAndGrad(fn, call, args, kwargs, s.position, s.weights, s.hasAux);
    else if (!s.withValue && s.api == GradApiOverride::ValueAndGrad)
        out = gradViaValueAndGrad(call, s.position, s.weights, s.hasAux);
    else if (s.withValue)
        out = valueAndGrad(call.function(), s.position, s.weights, s.hasAux)(call.values());
    else
        out = grad(call.function(), s.position, s.weights, s.hasAux)(call.values());
    if (!s.returnIds)
        return toPython(out);
    if (s.hasAux)
        return py::make_tuple(withIds(out[0], s.position, s.weights, args), toPython(out[1]));
    return withIds(out, s.position, s.weights, args);
}

py::object makeGrad(const py::object& fn, const py::object& gradPosition, const py::object& weights,
                    const py::object& hasAux, const py::object& returnIds, bool withValue,
                    const std::string& api)
{
    requireCallable(fn, api);
    GradSettings s{toGradPosition(gradPosition), toWeights(weights, api),
                   effectiveHasAux(toFlag(hasAux, api, "has_aux")),
                   toFlag(returnIds, api, "return_ids"), withValue, currentRun().overrides.gradApi};
    // Built for the core's argument checks only, so that they raise from ms.grad(...) itself as
    // in MindSpore; each call of the gradient function builds its own over that call's arguments.
    grad(Function(), s.position, s.weights, s.hasAux);
    return gradientFunction([fn, s, api](const py::args& args, const py::kwargs& kwargs) {
        return runGradCall(fn, s, api, args, kwargs);
    });
}

// get_grad(gradients, identifier): the first (id, grad) pair, depth first, whose id is the
// position (an int) or the Parameter's name; null when there is none.
py::object findGrad(py::handle node, const py::object& id)
{
    if (!PyTuple_Check(node.ptr()))
        return py::object();
    const py::tuple t = py::reinterpret_borrow<py::tuple>(node);
    if (t.size() == 2 && asTensor(t[1]) && (isInt(t[0]) || PyUnicode_Check(t[0].ptr()))) {
        const py::object key = t[0];
        return key.get_type().is(id.get_type()) && key.equal(id) ? py::object(t[1]) : py::object();
    }
    for (py::handle item : t)
        if (py::object found = findGrad(item, id))
            return found;
    return py::object();
}

py::object getGrad(const py::object& gradients, const py::object& identifier)
{
    static const py::detail::type_info* parameterType =
        py::detail::get_type_info(typeid(Parameter));
    py::object id;
    if (PyObject_TypeCheck(identifier.ptr(), parameterType->type))
        id = py::str(identifier.cast<Parameter>().name());
    else if (isInt(identifier) && !PyBool_Check(identifier.ptr()))
        id = identifier;
    else
        throw py::type_error("For 'get_grad', the 'identifier' must be an int (an input "
                             "position) or a Parameter, but got '" + typeName(identifier) + "'.");
    if (!PyTuple_Check(gradients.ptr()))
        throw py::type_error("For 'get_grad', the 'gradients' must be what grad(..., "
                             "return_ids=True) returned (a tuple), but got '" + typeName(gradients)
                             + "'.");
    if (py::object found = findGrad(gradients, id))
        return found;
    throw std::runtime_error("Can not find the gradient for " + std::string(py::repr(identifier))
                             + " in the 'gradients'; were they computed with return_ids=True?");
}

// ops.GradOperation: grad_op(net[, params]) gives the gradient function.
class PyGradOperation {
public:
    PyGradOperation(const py::object& getAll, const py::object& getByList,
                    const py::object& sensParam)
        : m_getAll(toFlag(getAll, "GradOperation", "get_all")),
          m_getByList(toFlag(getByList, "GradOperation", "get_by_list")),
          m_sensParam(toFlag(sensParam, "GradOperation", "sens_param"))
    {
    }

    bool getAll() const { return m_getAll; }
    bool getByList() const { return m_getByList; }
    bool sensParam() const { return m_sensParam; }

    py::object call(const py::object& fn, const py::object& weights) const
    {
        requireCallable(fn, "GradOperation");
        // get_by_list without weights: MindSpore 2.x collects the network's own parameters.
        const bool cellWeights = m_getByList && weights.is_none() && py::hasattr(fn, "trainable_params");
        const Weights w = toWeights(cellWeights ? py::object(fn.attr("trainable_params")()) : weights, "GradOperation");
        const GradOperation op(m_getAll, m_getByList, m_sensParam);
        op(Function(), w); // the checks of grad_op(net, params) raise now, as in MindSpore
        const bool sens = m_sensParam;
        const GradOperationFlags flags{m_getAll, m_getByList, m_sensParam};
        return gradientFunction(
            [fn, op, w, sens, flags](const py::args& args, const py::kwargs& kwargs) {
                PythonCall call(fn, args, kwargs, "GradOperation", sens);
                const auto graphMode = graphGradient(fn, args, kwargs, sens, "GradOperation");
                if (currentRun().overrides.gradApi == GradApiOverride::ValueAndGrad)
                    if (auto grads = gradOperationViaValueAndGrad(call, flags, w))
                        return toPython(*grads);
                return toPython(op(call.function(), w)(call.values()));
            });
    }

    std::string repr() const
    {
        auto flag = [](bool b) { return b ? "True" : "False"; };
        return std::string("GradOperation(get_all=") + flag(m_getAll)
               + ", get_by_list=" + flag(m_getByList) + ", sens_param=" + flag(m_sensParam) + ")";
    }

private:
    bool m_getAll;
    bool m_getByList;
    bool m_sensParam;
};

// ops.stop_gradient: Tensors (also inside tuples and lists) are cut from the graph; anything
// else is returned as given, as MindSpore does for constants.
py::object stopGradientOf(const py::object& value)
{
    if (const Tensor* t = asTensor(value))
        return py::cast(stopGradient(*t));
    if (isValueLike(value) && !value.is_none())
        return toPython(
            toValue(value, "stop_gradient").map([](const Tensor& t) { return stopGradient(t); }));
    return value;
}

// jit / ms_function compile the function (jit_runtime.h); the wrapper binds to self like a
// method, and the --mode pynative override makes it run the function as it is.
py::object jitDecorator(const py::object& fn, const char* api)
{
    if (!fn.is_none())
        return jitWrapper(requireCallable(fn, api));
    return py::cpp_function(
        [api](const py::object& f) { return jitWrapper(requireCallable(f, api)); },
        py::name(api));
}

void bindJit(py::module_& m)
{
    m.def(
        "jit",
        [](const py::object& fn, const py::object& /*mode*/, const py::object& /*inputSignature*/,
           const py::object& /*hashArgs*/,
           const py::object& /*jitConfig*/) { return jitDecorator(fn, "jit"); },
        py::arg("fn") = py::none(), py::arg("mode") = "PSJit",
        py::arg("input_signature") = py::none(), py::arg("hash_args") = py::none(),
        py::arg("jit_config") = py::none(),
        "Decorator (@jit or @jit(...)): the function is compiled to a graph and run.");
    m.def(
        "ms_function",
        [](const py::object& fn, const py::object& /*inputSignature*/,
           const py::object& /*hashArgs*/,
           const py::object& /*jitConfig*/) { return jitDecorator(fn, "ms_function"); },
        py::arg("fn") = py::none(), py::arg("input_signature") = py::none(),
        py::arg("hash_args") = py::none(), py::arg("jit_config") = py::none(),
        "The older name of jit.");
    // For the package's own Python helpers (MultitypeFuncGraph) that call a user's function:
    // while a graph compiles, the user's function joins it from source, as MindSpore compiles
    // what a MultitypeFuncGraph registered (an `if` on a tensor then compiles).
    m.def(
        "_jit_call",
        [](const py::object& fn, const py::args& args, const py::kwargs& kwargs) {
            return jitCompiling() ? compileCall(fn, py::tuple(args), py::dict(kwargs)) : fn(*args, **kwargs);
        },
        py::arg("fn"), "fn(*args, **kwargs), compiled from source while a graph compiles.");
}

void bindFunctions(py::module_& target)
{
    target.def(
        "grad",
        [](const py::object& fn, const py::object& gradPosition, const py::object& weights,
           const py::object& hasAux, const py::object& returnIds) {
            return makeGrad(fn, gradPosition, weights, hasAux, returnIds, false, "grad");
        },
        py::arg("fn"), py::arg("grad_position") = 0, py::arg("weights") = py::none(),
        py::arg("has_aux") = false, py::arg("return_ids") = false,
        "The gradient function of fn by the inputs at grad_position and/or the weights.");
    target.def(
        "value_and_grad",
        [](const py::object& fn, const py::object& gradPosition, const py::object& weights,
           const py::object& hasAux) {
            return makeGrad(fn, gradPosition, weights, hasAux, py::bool_(false), true,
                            "value_and_grad");
        },
        py::arg("fn"), py::arg("grad_position") = 0, py::arg("weights") = py::none(),
        py::arg("has_aux") = false,
        "Like grad, but the function returns (fn's output, gradients).");
}

} // namespace

void bindGrad(py::module_& m)
{
    py::module_ ops = m.attr("ops");
    bindFunctions(m);
    bindFunctions(ops);
    m.def("get_grad", &getGrad, py::arg("gradients"), py::arg("identifier"),
          "The gradient of an input position or a Parameter in what grad(..., return_ids=True) "
          "returned.");
    py::class_<PyGradOperation>(
        ops, "GradOperation",
        "A higher-order function: GradOperation(...)(net[, params]) is net's gradient function.")
        .def(py::init<py::object, py::object, py::object>(), py::arg("get_all") = false,
             py::arg("get_by_list") = false, py::arg("sens_param") = false)
        .def("__call__", &PyGradOperation::call, py::arg("fn"), py::arg("weights") = py::none())
        .def("__repr__", &PyGradOperation::repr)
        .def_property_readonly("get_all", &PyGradOperation::getAll)
        .def_property_readonly("get_by_list", &PyGradOperation::getByList)
        .def_property_readonly("sens_param", &PyGradOperation::sensParam);
    bindNoGrad(m);
    bindVmap(m);
    bindJvp(m);
    ops.def("stop_gradient", &stopGradientOf, py::arg("value"),
            "value with no gradient flowing back through it (the identity forward).");
    bindJit(m);
    bindJitStats(m);
    bindJitState(m);
    bindGraphExport(m);
    bindValueDependentShape(m);
    bindRandomDraw(m);
}

} // namespace gradstep::python
