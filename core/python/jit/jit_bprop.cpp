// A Cell with a bprop met while compiling (SEMANTICS.md §5.1): its construct and its bprop are
// compiled from source into the two subgraphs of one CustomBprop node (Note [Custom bprop in
// graphs] in graph/graph.h), so graph autodiff uses the bprop's gradients verbatim, as PyNative's
// tape node does. The node's operands are the Tensor leaves of the arguments, then what the
// construct or the bprop read from outside (the Cell's Parameters, which get no gradient from
// it). The bprop's nodes are traced in the Backward phase under the Cell's scope.
// SPDX-License-Identifier: MIT
#include "python/jit/jit_walker.h"

#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "autodiff/context.h"
#include "graph/autodiff.h"

#include <algorithm>

namespace gradstep::python {

namespace {

TensorList bindInputs(Subgraph& s, const SpecList& specs, const std::string& prefix)
{
    TensorList bound;
    for (std::size_t i = 0; i < specs.size(); ++i)
        bound.push_back(
            s.tracer->bind(s.graph->addInput(prefix + std::to_string(i), specs[i])));
    return bound;
}

// bprop's result as one gradient per argument leaf, by the rule PyNative applies (cell.cpp
// bpropGradients): one item per argument, None meaning no gradient (zeros here).
std::vector<Tensor> bpropLeaves(const std::string& cell, const OutputTree& arguments,
                                const SpecList& specs, const py::object& result)
{
    std::vector<py::object> items;
    if (PyTuple_Check(result.ptr()))
        for (py::handle item : result)
            items.push_back(py::reinterpret_borrow<py::object>(item));
    else if (arguments.items.size() == 1)
        items.push_back(result);
    if (items.size() != arguments.items.size())
        throw py::type_error("bprop of Cell '" + cell + "' returned "
                             + std::to_string(items.size()) + " gradients, expected one per "
                             + "input (" + std::to_string(arguments.items.size()) + ")");
    std::vector<Tensor> grads;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::size_t want = leafCount(arguments.items[i]);
        if (items[i].is_none()) {
            for (std::size_t k = 0; k < want; ++k) {
                const TensorSpec& s = specs[grads.size()];
                grads.push_back(Tensor::zeros(s.shape, s.dtype));
            }
            continue;
        }
        std::vector<Tensor> got;
        outputTreeOf(items[i], got);
        if (got.size() != want)
            throw py::type_error("bprop of Cell '" + cell + "' returned "
                                 + std::to_string(got.size()) + " tensors for input "
                                 + std::to_string(i) + ", expected " + std::to_string(want));
        grads.insert(grads.end(), got.begin(), got.end());
    }
    return grads;
}

// The subgraph with the node's input order: its `leading` argument inputs, every capture, then
// its other bound inputs (out and dout for the bprop).
Graph overCaptures(const Subgraph& sub, const char* name, std::size_t leading, std::size_t bound,
                   const std::vector<ValueId>& captures, const Graph& outer)
{
    const Graph& inner = *sub.graph;
    Graph g(name);
    const auto input = [&](std::size_t i) {
        const GraphValue& v = inner.value(inner.inputs()[i]);
        return g.addInput(v.name, v.spec);
    };
    std::vector<ValueId> arguments(bound);
    for (std::size_t i = 0; i < leading; ++i)
        arguments[i] = input(i);
    std::vector<ValueId> captured;
    for (std::size_t c = 0; c < captures.size(); ++c) {
        const std::string& known = outer.value(captures[c]).name;
        captured.push_back(g.addInput(known.empty() ? "in" + std::to_string(c) : known,
                                      outer.spec(captures[c])));
    }
    for (std::size_t i = leading; i < bound; ++i)
        arguments[i] = input(i);
    for (ValueId operand : *sub.operands) {
        const auto c = std::find(captures.begin(), captures.end(), operand) - captures.begin();
        arguments.push_back(captured[static_cast<std::size_t>(c)]);
    }
    g.setOutputs(inlineGraph(g, inner, arguments));
    return g;
}

} // namespace

py::object Compiler::compileBpropCell(const py::object& cell, const py::tuple& args,
                                      const py::dict& kwargs)
{
    const Cell& core = initializedCell(cell);
    if (!kwargs.empty())
        throw py::type_error("For '" + core.className() + "', a Cell with a bprop takes "
                             "positional inputs only, but got keyword arguments.");
    std::vector<Tensor> argLeaves;
    const OutputTree argTree = outputTreeOf(args, argLeaves);
    const SpecList argSpecs = specsOf(argLeaves);
    const bool nested = executionContext().scope != nullptr;
    ScopeGuard scope(nested && !core.attributeName().empty() ? core.attributeName()
                                                             : core.className());
    Frame blank;
    const Frame& frame = m_frames.empty() ? blank : *m_frames.back();
    OutputTree outTree;
    SpecList outSpecs;
    Subgraph construct = buildSubgraph(frame, "construct", [&](Subgraph& s) {
        const TensorList bound = bindInputs(s, argSpecs, "x");
        std::size_t next = 0;
        const py::object result = compileInline(cell.attr("construct"),
                                                buildOutput(argTree, bound, next), py::dict());
        std::vector<Tensor> leaves;
        outTree = outputTreeOf(result, leaves);
        outSpecs = specsOf(leaves);
        std::vector<ValueId> outputs;
        for (const Tensor& t : leaves)
            outputs.push_back(s.tracer->valueOf(t));
        s.graph->setOutputs(std::move(outputs));
        return Flow::Normal;
    });
    construct.tracer.reset();
    Subgraph bprop = buildSubgraph(frame, "bprop", [&](Subgraph& s) {
        PhaseGuard backward(Phase::Backward);
        const TensorList bound = bindInputs(s, argSpecs, "x");
        const TensorList out = bindInputs(s, outSpecs, "out");
        const TensorList dout = bindInputs(s, outSpecs, "dout");
        std::size_t next = 0;
        py::list items(buildOutput(argTree, bound, next));
        next = 0;
        items.append(buildOutput(outTree, out, next));
        next = 0;
        items.append(buildOutput(outTree, dout, next));
        const py::object result =
            compileInline(cell.attr("bprop"), py::tuple(items), py::dict());
        std::vector<ValueId> outputs;
        for (const Tensor& g : bpropLeaves(core.className(), argTree, argSpecs, result))
            outputs.push_back(s.tracer->valueOf(g));
        s.graph->setOutputs(std::move(outputs));
        return Flow::Normal;
    });
    bprop.tracer.reset();

    std::vector<ValueId> captures = *construct.operands;
    for (ValueId v : *bprop.operands)
        if (std::find(captures.begin(), captures.end(), v) == captures.end())
            captures.push_back(v);
    std::vector<ValueId> operands;
    for (const Tensor& t : argLeaves)
        operands.push_back(tracer().valueOf(t));
    operands.insert(operands.end(), captures.begin(), captures.end());
    const std::size_t k = argSpecs.size();
    const std::vector<ValueId> outputs = graph().addCustomBprop(
        operands, static_cast<std::int64_t>(k),
        overCaptures(construct, "construct", k, k, captures, graph()),
        overCaptures(bprop, "bprop", k, k + 2 * outSpecs.size(), captures, graph()),
        identityHere());
    TensorList values;
    for (ValueId v : outputs)
        values.push_back(tracer().bind(v));
    std::size_t next = 0;
    return buildOutput(outTree, values, next);
}

} // namespace gradstep::python
