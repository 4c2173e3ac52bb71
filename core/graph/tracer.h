// Tracing op calls into graph nodes: while a GraphTracer is alive, every op called on this thread
// becomes a node of its graph instead of running. Graph autodiff runs each op's backward rule over
// symbolic tensors this way, so the rule itself is the only definition of the derivative.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/context.h"
#include "graph/graph.h"
#include "nn/parameter.h"

#include <functional>
#include <optional>
#include <unordered_map>

namespace gradstep {

class GraphTracer final : public OpTracer {
public:
    /// Installs itself as this thread's tracer (and disables tape recording) until destroyed.
    explicit GraphTracer(Graph& graph);
    ~GraphTracer() override;
    GraphTracer(const GraphTracer&) = delete;
    GraphTracer& operator=(const GraphTracer&) = delete;

    /// A symbolic tensor (no storage) standing for `id`; requiresGrad is what rules see as
    /// needsGrad.
    Tensor bind(ValueId id, bool requiresGrad = false);
    /// From now on the concrete tensor `external` (a Parameter a Cell holds) stands for `id`.
    void bindExternal(const Tensor& external, ValueId id);
    /// The value a tensor stands for; a concrete tensor met for the first time becomes a constant.
    ValueId valueOf(const Tensor& tensor);
    /// Identity of the nodes traced from now on; without one they take the context's scope,
    /// phase and source location, as PyNative nodes do.
    void setIdentity(std::optional<NodeIdentity> identity) { m_identity = std::move(identity); }
    /// Decides what a tensor met for the first time stands for (the Python front end makes
    /// Parameters graph inputs and hands a branch the values of the enclosing graph); nullopt
    /// keeps the default (a concrete tensor becomes a constant, a foreign symbolic one an error).
    using Resolver = std::function<std::optional<ValueId>(const Tensor&)>;
    void setResolver(Resolver resolver) { m_resolver = std::move(resolver); }

    OutputList traceOp(const OpDef& op, std::span<const Tensor> inputs,
                       const Attrs& attrs) override;

private:
    NodeIdentity currentIdentity() const;

    Graph& m_graph;
    OpTracer* m_savedTracer;
    std::optional<NodeIdentity> m_identity;
    Resolver m_resolver;
    // Keyed by TensorImpl and Storage addresses only for lookup (never iterated); m_alive keeps
    // each key's tensor alive so an address cannot be reused for another tensor during the trace.
    // The storage key finds a value again through detach(), which makes a new TensorImpl.
    std::unordered_map<const TensorImpl*, ValueId> m_values;
    std::unordered_map<const Storage*, ValueId> m_storages;
    std::vector<Tensor> m_alive;
};

struct TracedInput {
    std::string name;
    TensorSpec spec;
    ValueKind kind = ValueKind::Argument;
};

/// Builds a graph by running fn over symbolic inputs (a C++ front end for tests and tools; the
/// Python front end compiles source instead). Ops fn calls become nodes; tensors it creates become
/// constants. fn must not read tensor values (symbolic tensors read as zeros).
Graph traceFunction(std::string name, std::span<const TracedInput> inputs,
                    const std::function<TensorList(const TensorList&)>& fn);

/// traceFunction for code that closes over parameters (a Cell's): each of `parameters` becomes a
/// graph input of kind Parameter after `inputs`, named by its Parameter name, instead of a
/// constant.
Graph traceFunction(std::string name, std::span<const TracedInput> inputs,
                    std::span<const Parameter> parameters,
                    const std::function<TensorList(const TensorList&)>& fn);

} // namespace gradstep
