// vmap's tracer: logical tensors, their physical values, and batched op dispatch.
// SPDX-License-Identifier: MIT
#include "api/batch_tracer.h"

#include "graph/graph.h"
#include "ops/batching/batch_rules.h"
#include "ops/dispatch.h"
#include "ops/shape_ops.h"

#include <utility>

namespace gradstep {

OuterContext::OuterContext(const BatchTracer& tracer)
    : m_restore(std::exchange(executionContext().tracer, tracer.m_saved))
{
}

OuterContext::~OuterContext() { executionContext().tracer = m_restore; }

BatchTracer::BatchTracer(std::int64_t batchSize) : m_batchSize(batchSize) {}

BatchTracer::~BatchTracer()
{
    if (m_installed)
        uninstall();
}

void BatchTracer::install()
{
    m_saved = std::exchange(executionContext().tracer, this);
    m_engine = std::make_unique<TraceDifferentiatorGuard>(
        [this](const Function& fn, const std::vector<Value>& args, const Value& sens, const GradRequest& request) {
            return differentiate(fn, args, sens, request);
        });
    m_installed = true;
}

void BatchTracer::uninstall()
{
    m_engine.reset();
    executionContext().tracer = m_saved;
    m_installed = false;
}

Tensor BatchTracer::logicalFor(const Tensor& physical)
{
    Shape element;
    for (int a = 1; a < physical.rank(); ++a)
        element.push_back(physical.shape()[a]);
    Tensor logical = symbolicTensor({element, physical.dtype()});
    m_entries[logical.impl()->storage.get()] = Entry{logical, physical};
    return logical;
}

Tensor BatchTracer::bind(const Tensor& physical, std::int64_t axis)
{
    const int rank = physical.rank();
    const int a = normalizeAxis(axis, rank, "vmap");
    if (a == 0)
        return logicalFor(physical);
    std::vector<std::int64_t> perm{a};
    for (int i = 0; i < rank; ++i)
        if (i != a)
            perm.push_back(i);
    return logicalFor(transpose(physical, perm));
}

std::optional<Tensor> BatchTracer::physical(const Tensor& logical) const
{
    if (!logical.defined())
        return std::nullopt;
    const auto it = m_entries.find(logical.impl()->storage.get());
    if (it == m_entries.end())
        return std::nullopt;
    if (!(it->second.logical.shape() == logical.shape()))
        throw ValueError("vmap: a view of a batched tensor with another shape (" + logical.shape().toString()
                         + ") cannot be batched");
    return it->second.physical;
}

void BatchTracer::mapTemporary(const Tensor& tensor, const Tensor& physical)
{
    const void* key = tensor.impl()->storage.get();
    const auto it = m_entries.find(key);
    if (it != m_entries.end())
        m_shadowed[key].push_back(it->second);
    m_entries[key] = Entry{tensor, physical};
}

void BatchTracer::unmapTemporary(const Tensor& tensor)
{
    const void* key = tensor.impl()->storage.get();
    auto shadowed = m_shadowed.find(key);
    if (shadowed == m_shadowed.end() || shadowed->second.empty()) {
        m_entries.erase(key);
        return;
    }
    m_entries[key] = shadowed->second.back();
    shadowed->second.pop_back();
}

OutputList BatchTracer::traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    std::vector<BatchedInput> batched;
    batched.reserve(inputs.size());
    bool any = false;
    for (const Tensor& t : inputs) {
        std::optional<Tensor> p = physical(t);
        any = any || p.has_value();
        batched.push_back(p ? BatchedInput{t, *p, true} : BatchedInput{t, t, false});
    }
    OuterContext outer(*this);
    if (!any)
        return callOp(op, inputs, attrs);
    const BatchedCall call{op, batched, attrs, m_batchSize};
    const std::uint64_t loopsBefore = batchStats().perElementOps;
    OutputList outs = runBatched(call);
    if (batchStats().perElementOps == loopsBefore)
        ++batchStats().batchedOps;
    OutputList logical;
    for (const Tensor& o : outs)
        logical.push_back(o.defined() ? logicalFor(o) : Tensor());
    return logical;
}

} // namespace gradstep
