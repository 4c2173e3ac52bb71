// Tracing op calls into graph nodes. SPDX-License-Identifier: MIT
#include "graph/tracer.h"

namespace gradstep {

GraphTracer::GraphTracer(Graph& graph) : m_graph(graph), m_savedTracer(executionContext().tracer)
{
    ExecutionContext& ctx = executionContext();
    ctx.tracer = this;
    ++ctx.noGradDepth;
}

GraphTracer::~GraphTracer()
{
    ExecutionContext& ctx = executionContext();
    ctx.tracer = m_savedTracer;
    --ctx.noGradDepth;
}

Tensor GraphTracer::bind(ValueId id, bool requiresGrad)
{
    Tensor t = symbolicTensor(m_graph.spec(id));
    t.impl()->requiresGrad = requiresGrad;
    m_values.emplace(t.impl(), id);
    m_storages.emplace(t.impl()->storage.get(), id);
    m_alive.push_back(t);
    return t;
}

void GraphTracer::bindExternal(const Tensor& external, ValueId id)
{
    m_values[external.impl()] = id;
    m_alive.push_back(external);
}

ValueId GraphTracer::valueOf(const Tensor& tensor)
{
    if (!tensor.defined())
        throw ValueError("an undefined tensor cannot be used in graph '" + m_graph.name() + "'");
    auto found = m_values.find(tensor.impl());
    if (found != m_values.end())
        return found->second;
    if (isSymbolic(tensor)) {
        auto same = m_storages.find(tensor.impl()->storage.get());
        if (same != m_storages.end() && m_graph.spec(same->second).shape == tensor.shape()
            && m_graph.spec(same->second).dtype == tensor.dtype())
            return same->second;
    }
    if (const std::optional<ValueId> resolved = m_resolver ? m_resolver(tensor) : std::nullopt) {
        m_values.emplace(tensor.impl(), *resolved);
        m_alive.push_back(tensor);
        return *resolved;
    }
    if (isSymbolic(tensor))
        throw RuntimeError("a symbolic tensor of another graph was used while tracing graph '"
                           + m_graph.name() + "'");
    const ValueId id = m_graph.addConstant(tensor);
    m_values.emplace(tensor.impl(), id);
    m_alive.push_back(tensor);
    return id;
}

NodeIdentity GraphTracer::currentIdentity() const
{
    if (m_identity)
        return *m_identity;
    const ExecutionContext& ctx = executionContext();
    NodeIdentity identity;
    if (ctx.scope)
        identity.scope = *ctx.scope;
    identity.phase = ctx.phase;
    if (ctx.locationProvider)
        identity.location = ctx.locationProvider();
    return identity;
}

OutputList GraphTracer::traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    std::vector<ValueId> ids;
    ids.reserve(inputs.size());
    for (const Tensor& t : inputs)
        ids.push_back(valueOf(t));
    const std::vector<ValueId> outs = m_graph.addNode(op, ids, attrs, currentIdentity());
    OutputList result;
    for (ValueId v : outs)
        result.push_back(bind(v));
    return result;
}

Graph traceFunction(std::string name, std::span<const TracedInput> inputs,
                    const std::function<TensorList(const TensorList&)>& fn)
{
    return traceFunction(std::move(name), inputs, {}, fn);
}

Graph traceFunction(std::string name, std::span<const TracedInput> inputs,
                    std::span<const Parameter> parameters,
                    const std::function<TensorList(const TensorList&)>& fn)
{
    Graph graph(std::move(name));
    GraphTracer tracer(graph);
    TensorList args;
    for (const TracedInput& in : inputs)
        args.push_back(tracer.bind(graph.addInput(in.name, in.spec, in.kind)));
    for (const Parameter& p : parameters)
        tracer.bindExternal(p,
                            graph.addInput(p.name(), {p.shape(), p.dtype()}, ValueKind::Parameter));
    const TensorList results = fn(args);
    std::vector<ValueId> outputs;
    for (const Tensor& r : results)
        outputs.push_back(tracer.valueOf(r));
    graph.setOutputs(std::move(outputs));
    return graph;
}

} // namespace gradstep
