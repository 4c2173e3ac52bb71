// Note [Graphs for MINDIR]: mindspore.export and mindspore.load (train/_mindir.py) move a compiled
// graph between the core and MindSpore's MINDIR protobuf, which the package reads and writes in
// Python with the protobuf module, as it does checkpoints. What crosses the boundary is a plain
// description, not the Graph itself, so the file format stays in one Python module:
//   {"name": str, "values": [(kind, name, dtype, shape)] indexed by value id,
//    "inputs": [id], "parameters": [Tensor] (one per Parameter input, in input order),
//    "constants": {id: Tensor},
//    "nodes": [{"op", "inputs", "outputs", "attrs", "scope", "variadic"}],
//    "outputs": [id], "tuple_output": bool}
// mindspore._export_graph(fn, args) compiles fn with graph mode's compiler (its construct with
// any gradient calls in it, so a gradient Cell exports its forward + backward graph) and
// describes the graph as compiled, before the pass pipeline: passes fuse nodes into kernels that
// are ours, not MindSpore primitives. Cells with a bprop are inlined; If and While nodes are
// refused (MINDIR writes control flow as Switch and Partial over subgraphs, which this writer does
// not produce). mindspore._GraphRunner(description) builds a Graph from a
// description the other way (every op's shape rule runs, so a foreign file's bad node is a
// shape error naming the op), runs the default pipeline and executes it on a GraphExecutor.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/jit/jit_compiler.h"
#include "python/jit/jit_runtime.h"

#include "autodiff/context.h"
#include "graph/autodiff.h"
#include "graph/executor.h"
#include "ops/registry.h"
#include "passes/pipeline.h"
#include "tensor/errors.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>

namespace py = pybind11;

namespace gradstep::python {

namespace {

const char* kindName(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Argument: return "argument";
    case ValueKind::Parameter: return "parameter";
    case ValueKind::Constant: return "constant";
    case ValueKind::NodeOutput: break;
    }
    return "output";
}

py::object attrToPython(const AttrValue& value)
{
    return std::visit(
        [](const auto& v) -> py::object {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
                return py::tuple(py::cast(v));
            else if constexpr (std::is_same_v<T, DType>)
                return dtypeObject(v);
            else
                return py::cast(v);
        },
        value);
}

AttrValue attrFromPython(const std::string& op, const std::string& name, const py::handle& value)
{
    if (py::isinstance<py::bool_>(value))
        return value.cast<bool>();
    if (py::isinstance<py::int_>(value))
        return value.cast<std::int64_t>();
    if (py::isinstance<py::float_>(value))
        return value.cast<double>();
    if (py::isinstance<py::str>(value))
        return value.cast<std::string>();
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
        std::vector<std::int64_t> ints;
        for (const py::handle item : value) {
            if (!py::isinstance<py::int_>(item) || py::isinstance<py::bool_>(item))
                throw TypeError("For '" + op + "', the attribute '" + name
                                + "' must be a tuple of int, but got "
                                + py::str(py::repr(value)).cast<std::string>() + ".");
            ints.push_back(item.cast<std::int64_t>());
        }
        return ints;
    }
    return toDType(value);
}

py::dict describeGraph(const CompiledFunction& c)
{
    const Graph& g = c.graph;
    py::list values;
    py::dict constants;
    for (const GraphValue& v : g.values()) {
        values.append(py::make_tuple(kindName(v.kind), v.name, dtypeObject(v.spec.dtype),
                                     py::tuple(py::cast(v.spec.shape.toVector()))));
        if (v.kind == ValueKind::Constant)
            constants[py::int_(v.id)] = py::cast(v.constant);
    }
    py::list nodes;
    for (const GraphNode& n : g.nodes()) {
        if (n.kind != NodeKind::Op)
            throw TypeError("For 'export', the graph of '" + g.name() + "' holds a '"
                            + std::string(n.name()) + "' node (" + n.identity.location.toString()
                            + "): gradstep writes MINDIR files of graphs without control flow "
                              "(if / while on tensor values).");
        py::dict attrs;
        for (const auto& [name, value] : n.attrs.items())
            attrs[py::str(name)] = attrToPython(value);
        py::dict node;
        node["op"] = std::string(n.name());
        node["inputs"] = py::cast(n.inputs);
        node["outputs"] = py::cast(n.outputs);
        node["attrs"] = attrs;
        node["scope"] = n.identity.scope;
        node["variadic"] = n.op->maxInputs < 0;
        nodes.append(node);
    }
    // The result's leaves only: the state the function writes back (a BatchNorm's running
    // statistics) is an effect of training, not an output of the exported model.
    const std::size_t results = leafCount(c.output);
    std::vector<ValueId> outputs(g.outputs().begin(),
                                 g.outputs().begin() + static_cast<std::ptrdiff_t>(results));
    py::dict d;
    d["name"] = g.name();
    d["values"] = values;
    d["inputs"] = py::cast(g.inputs());
    d["parameters"] = py::cast(c.parameters);
    d["constants"] = constants;
    d["nodes"] = nodes;
    d["outputs"] = py::cast(outputs);
    d["tuple_output"] = c.output.kind != OutputTree::Kind::Tensor;
    return d;
}

/// g with each CustomBprop node replaced by its construct subgraph, inlined (nested ones too): a
/// file describes what the Cell computes, and a gradient in the graph has its bprop inlined already
/// (Note [Custom bprop in graphs] in graph.h).
Graph withBpropCellsInlined(const Graph& g)
{
    Graph out(g.name());
    std::vector<ValueId> map(g.values().size(), kNoId);
    for (ValueId in : g.inputs()) {
        const GraphValue& v = g.value(in);
        map[in] = out.addInput(v.name, v.spec, v.kind);
    }
    for (const GraphValue& v : g.values())
        if (v.kind == ValueKind::Constant)
            map[v.id] = out.addConstant(v.constant);
    for (const GraphNode& node : g.nodes()) {
        std::vector<ValueId> inputs;
        for (ValueId in : node.inputs)
            inputs.push_back(map[in]);
        const std::vector<ValueId> results =
            node.kind == NodeKind::CustomBprop
                ? inlineGraph(out, withBpropCellsInlined(*node.subgraphs[0]), inputs)
                : out.addCopy(node, inputs);
        for (std::size_t i = 0; i < results.size(); ++i)
            map[node.outputs[i]] = results[i];
    }
    std::vector<ValueId> outputs;
    for (ValueId o : g.outputs())
        outputs.push_back(map[o]);
    out.setOutputs(std::move(outputs));
    return out;
}

py::dict exportGraph(const py::object& fn, const py::tuple& args)
{
    const std::uint64_t untraceableBefore = executionContext().untraceableCalls;
    const std::string name = py::str(py::getattr(py::type::of(fn), "__name__")).cast<std::string>();
    CompiledFunction c = compileFunction(fn, args, py::dict(), name);
    if (executionContext().untraceableCalls != untraceableBefore)
        throw TypeError("For 'export', the construct of '" + name
                        + "' holds calls that cannot be compiled into one graph (they run in "
                          "Python under graph mode's fallback), so it has no graph to export.");
    c.graph = withBpropCellsInlined(c.graph);
    return describeGraph(c);
}

/// A graph built from a description, with its executor.
class GraphRunner {
public:
    explicit GraphRunner(const py::dict& d)
    {
        Graph g(d["name"].cast<std::string>());
        const py::list values = d["values"];
        const py::dict constants = d["constants"];
        std::map<std::int64_t, ValueId> ids; // description id -> graph id
        auto idOf = [&](const py::handle& key, const std::string& where) {
            const auto found = ids.find(key.cast<std::int64_t>());
            if (found == ids.end())
                throw ValueError(where + " uses value " + py::str(key).cast<std::string>()
                                 + ", which no earlier input, constant or node defines.");
            return found->second;
        };
        for (const py::handle input : py::list(d["inputs"])) {
            const py::tuple v = values[input.cast<std::size_t>()];
            TensorSpec spec{Shape(v[3].cast<std::vector<std::int64_t>>()), toDType(v[2])};
            const ValueKind kind = v[0].cast<std::string>() == "parameter" ? ValueKind::Parameter
                                                                          : ValueKind::Argument;
            ids[input.cast<std::int64_t>()] = g.addInput(v[1].cast<std::string>(), spec, kind);
            m_inputs.push_back(spec);
        }
        for (const auto item : constants) {
            const Tensor* t = asTensor(item.second);
            if (!t)
                throw TypeError("A constant of the graph is not a Tensor.");
            ids[item.first.cast<std::int64_t>()] = g.addConstant(*t);
        }
        for (const py::handle nodeHandle : py::list(d["nodes"])) {
            const py::dict node = py::reinterpret_borrow<py::dict>(nodeHandle);
            const std::string op = node["op"].cast<std::string>();
            const OpDef* def = OpRegistry::instance().find(op);
            if (!def)
                throw ValueError("The primitive '" + op
                                 + "' is not supported by gradstep's graph executor.");
            std::vector<ValueId> inputs;
            for (const py::handle in : py::list(node["inputs"]))
                inputs.push_back(idOf(in, "The node '" + op + "'"));
            Attrs attrs;
            for (const auto a : py::dict(node["attrs"])) {
                const std::string name = a.first.cast<std::string>();
                attrs.set(name, attrFromPython(op, name, a.second));
            }
            NodeIdentity identity;
            identity.scope = node["scope"].cast<std::string>();
            const std::vector<ValueId> out = g.addNode(*def, inputs, std::move(attrs), identity);
            // A reader may name more outputs than the op has (it cannot know how many a
            // primitive returns); a use of one that does not exist fails in idOf.
            const py::list outputs = node["outputs"];
            for (std::size_t k = 0; k < std::min(outputs.size(), out.size()); ++k)
                ids[outputs[k].cast<std::int64_t>()] = out[k];
        }
        std::vector<ValueId> outputs;
        for (const py::handle out : py::list(d["outputs"]))
            outputs.push_back(idOf(out, "The graph's output"));
        g.setOutputs(std::move(outputs));
        const std::vector<std::string_view> passes = defaultPipeline();
        m_executor = std::make_unique<GraphExecutor>(runPipeline(g, passes).graph);
    }

    /// One (dtype, shape) per graph input, arguments then parameters.
    py::list inputSpecs() const
    {
        py::list specs;
        for (const TensorSpec& s : m_inputs)
            specs.append(py::make_tuple(dtypeObject(s.dtype),
                                        py::tuple(py::cast(s.shape.toVector()))));
        return specs;
    }

    /// While a caller is compiled, the inputs have no values yet: the caller's body runs in
    /// Python instead (graph mode's fallback, as for _value_dependent_shape), so this graph runs
    /// on real values rather than being traced through.
    TensorList run(const std::vector<Tensor>& inputs)
    {
        ExecutionContext& ctx = executionContext();
        for (const Tensor& t : inputs)
            if (ctx.tracer && isSymbolic(t)) {
                ++ctx.untraceableCalls;
                throw TypeError("For 'GraphCell', a graph loaded from MINDIR runs on values, which "
                                "are not known while its caller is compiled for graph mode.");
            }
        return m_executor->run(inputs);
    }

private:
    std::vector<TensorSpec> m_inputs;
    std::unique_ptr<GraphExecutor> m_executor;
};

} // namespace

void bindGraphExport(py::module_& m)
{
    m.def("_export_graph", &exportGraph, py::arg("fn"), py::arg("args"),
          "The graph fn(*args) compiles to, described for the MINDIR writer (Note [Graphs for "
          "MINDIR]).");
    py::class_<GraphRunner>(m, "_GraphRunner",
                            "A graph built from a description (Note [Graphs for MINDIR]), run by "
                            "the graph executor.")
        .def(py::init<const py::dict&>(), py::arg("description"))
        .def("input_specs", &GraphRunner::inputSpecs)
        .def("run", &GraphRunner::run, py::arg("inputs"));
}

} // namespace gradstep::python
