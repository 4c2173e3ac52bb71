// vmap's tracer: while installed, every op reached by a logical (per-element) tensor runs batched
// through its batching rule (Note [Batching rules] in ops/batching/batch_rules.h), and gradient
// calls inside the vmapped function give per-element gradients (Note [Per-element gradients]).
// SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "autodiff/context.h"
#include "ops/batching/batch_rules.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gradstep {

class BatchTracer final : public OpTracer {
public:
    explicit BatchTracer(std::int64_t batchSize);
    ~BatchTracer() override;
    BatchTracer(const BatchTracer&) = delete;
    BatchTracer& operator=(const BatchTracer&) = delete;

    std::int64_t batchSize() const { return m_batchSize; }
    /// A logical tensor for `physical`'s slices along `axis` (moved to the front with the ops of
    /// the enclosing context: an outer vmap's batch, a compiled graph's nodes, or eager ops).
    Tensor bind(const Tensor& physical, std::int64_t axis);
    /// The physical tensor (batch at axis 0) a logical tensor of this tracer stands for, or
    /// nullopt for a tensor that does not depend on the batch.
    std::optional<Tensor> physical(const Tensor& logical);

    /// Makes this the thread's tracer (and the engine of gradient calls) until uninstall().
    void install();
    void uninstall();

    OutputList traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs) override;

    /// The per-element engine of differentiate() calls made while installed (batch_grad.cpp).
    GradResult differentiate(const Function& fn, std::vector<Value> args, const Value& sens,
                             const GradRequest& request);

private:
    friend class OuterContext;
    /// A logical tensor for a physical one with the batch at axis 0.
    Tensor logicalFor(const Tensor& physical);
    struct Entry {
        Tensor logical; ///< kept alive so its storage address is not reused
        Tensor physical;
        /// A weight's per-element copies (Note [Per-element weights]): `physical` is the gradient
        /// target, shape only; `shared` the weight, whose broadcast `physical` stands for.
        Tensor shared;
        Tensor materialized; ///< the broadcast values, made when an op first needs them
    };
    /// Maps `tensor` (a Parameter used as a weight) to its per-element target until
    /// unmapTemporary().
    void mapWeight(const Tensor& weight, const Tensor& target);
    void unmapTemporary(const Tensor& tensor);
    Entry* entryOf(const Tensor& logical);
    /// The values of an entry's physical tensor (a weight's broadcast made on first use).
    Tensor valuesOf(Entry& entry);
    /// MatMul of batched rows by a weight's per-element copies, without making the copies.
    OutputList matmulPerElementWeight(const Tensor& rows, const Entry& weight, const Attrs& attrs);
    std::int64_t m_batchSize;
    OpTracer* m_saved = nullptr;
    bool m_installed = false;
    std::unique_ptr<TraceDifferentiatorGuard> m_engine;
    // Keyed by storage address only for lookup, never iterated: detach() keeps the storage, so a
    // stop-gradient'ed logical tensor is still the same batched value.
    std::unordered_map<const void*, Entry> m_entries;
    std::unordered_map<const void*, std::vector<Entry>> m_shadowed;
};

/// Whether the thread's tracer is vmap's (code runs on logical tensors now).
bool insideVmap();

/// While alive, the thread's tracer is the one enclosing `tracer` (ops run on physical tensors).
class OuterContext {
public:
    explicit OuterContext(const BatchTracer& tracer);
    ~OuterContext();
    OuterContext(const OuterContext&) = delete;
    OuterContext& operator=(const OuterContext&) = delete;

private:
    OpTracer* m_restore;
};

} // namespace gradstep
