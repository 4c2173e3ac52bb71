// vmap's tracer: logical tensors, their physical values, and batched op dispatch.
// SPDX-License-Identifier: MIT
#include "api/batch_tracer.h"

#include "graph/graph.h"
#include "ops/batching/batch_rules.h"
#include "autodiff/tape.h"
#include "ops/dispatch.h"
#include "ops/nn_ops.h"
#include "ops/registry.h"
#include "ops/shape_ops.h"

#include <utility>

namespace gradstep {

bool insideVmap() { return dynamic_cast<const BatchTracer*>(executionContext().tracer) != nullptr; }

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
    m_entries[logical.impl()->storage.get()] = Entry{logical, physical, Tensor(), Tensor()};
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

BatchTracer::Entry* BatchTracer::entryOf(const Tensor& logical)
{
    if (!logical.defined())
        return nullptr;
    const auto it = m_entries.find(logical.impl()->storage.get());
    if (it == m_entries.end())
        return nullptr;
    if (!(it->second.logical.shape() == logical.shape()))
        throw ValueError("vmap: a view of a batched tensor with another shape (" + logical.shape().toString()
                         + ") cannot be batched");
    return &it->second;
}

// Note [Per-element weights]
// vmap(grad) differentiates a weight as its broadcast along the batch (Note [Per-element
// gradients]). The copies are B times the weight, and a Dense layer would multiply each row by
// its own copy (a batch of matrix-vector products) where one matrix product over all the rows
// does, and then sum each copy's gradient back into the weight for nothing. So the copies are a
// gradient target only (a tensor with a shape and no values) until an op needs their values:
// MatMul of batched rows by the weight runs as one product with the shared weight and records its
// own backward (dx from the shared weight, each element's dW from its rows and its gradient);
// any other op gets the broadcast values, linked to the target.
Tensor BatchTracer::valuesOf(Entry& entry)
{
    if (!entry.shared.defined())
        return entry.physical;
    if (!entry.materialized.defined()) {
        OuterContext outer(*this);
        Tensor values;
        {
            NoGradGuard noGrad;
            values = broadcastTo(entry.shared, entry.physical.shape().toVector());
        }
        Tensor in[] = {entry.physical};
        Tensor outs[] = {values};
        recordCustom("BroadcastTo", in, outs, [](const BackwardContext& ctx, std::span<const Tensor> grads) {
            return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
        });
        entry.materialized = outs[0];
    }
    return entry.materialized;
}

std::optional<Tensor> BatchTracer::physical(const Tensor& logical)
{
    Entry* entry = entryOf(logical);
    if (!entry)
        return std::nullopt;
    return valuesOf(*entry);
}

void BatchTracer::mapWeight(const Tensor& weight, const Tensor& target)
{
    const void* key = weight.impl()->storage.get();
    const auto it = m_entries.find(key);
    if (it != m_entries.end())
        m_shadowed[key].push_back(it->second);
    m_entries[key] = Entry{weight, target, weight, Tensor()};
}

OutputList BatchTracer::matmulPerElementWeight(const Tensor& rows, const Entry& weight, const Attrs& attrs)
{
    OuterContext outer(*this);
    const Tensor w = weight.shared;
    const bool tb = attrs.getBool("transpose_b", false);
    const std::int64_t b = m_batchSize, m = rows.shape()[1], k = rows.shape()[2];
    Tensor y;
    {
        NoGradGuard noGrad;
        y = matmul(reshape(rows, {b * m, k}), w, false, tb);
        y = reshape(y, {b, m, y.shape()[1]});
    }
    Tensor in[] = {rows, weight.physical};
    Tensor outs[] = {y};
    recordCustom("MatMul", in, outs, [w, tb, b, m, k](const BackwardContext& ctx, std::span<const Tensor> grads) {
        const Tensor& g = grads[0];
        TensorList result(2);
        if (ctx.needsGrad(0))
            result[0] = reshape(matmul(reshape(g, {b * m, g.shape()[2]}), w, false, !tb), {b, m, k});
        if (ctx.needsGrad(1)) {
            const OpDef& bmm = OpRegistry::instance().get("BatchMatMul");
            const Attrs transposeA{{"transpose_a", true}, {"transpose_b", false}};
            const Tensor x = ctx.input(0);
            result[1] = tb ? callOp1(bmm, {g, x}, transposeA) : callOp1(bmm, {x, g}, transposeA);
        }
        return result;
    });
    OutputList out;
    out.push_back(outs[0]);
    return out;
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
    SmallVector<Entry*, 4> entries;
    bool any = false;
    for (const Tensor& t : inputs) {
        entries.push_back(entryOf(t));
        any = any || entries[entries.size() - 1] != nullptr;
    }
    // An op that writes into its inputs would write a slice's copy, and a random op on unbatched
    // inputs would draw once for the whole batch: vmap runs such a function per element
    // instead (the package falls back to its loop on this error).
    if (op.writesInputs || (op.random && !any))
        throw RuntimeError("vmap: '" + std::string(op.name) + "' "
                           + (op.writesInputs ? "writes into its inputs" : "draws random numbers")
                           + ", which the batched trace does not run");
    if (!any) {
        OuterContext outer(*this);
        return callOp(op, inputs, attrs);
    }
    if (op.name == "MatMul" && inputs.size() == 2 && entries[0] && !entries[0]->shared.defined() && entries[1]
        && entries[1]->shared.defined() && inputs[0].rank() == 2 && !attrs.getBool("transpose_a", false)) {
        ++batchStats().batchedOps;
        OutputList outs = matmulPerElementWeight(valuesOf(*entries[0]), *entries[1], attrs);
        OutputList logical;
        logical.push_back(logicalFor(outs[0]));
        return logical;
    }
    std::vector<BatchedInput> batched;
    batched.reserve(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        batched.push_back(entries[i] ? BatchedInput{inputs[i], valuesOf(*entries[i]), true}
                                     : BatchedInput{inputs[i], inputs[i], false});
    OuterContext outer(*this);
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
