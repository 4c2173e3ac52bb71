// Forward mode: ops.jvp's tracer. While installed, every op runs as usual and, when an input
// carries a tangent, its forward-mode rule pushes the tangents through it (Note [Forward-mode
// rules] in ops/jvp/jvp_rules.h). SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "autodiff/context.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gradstep {

/// Counts of how forward mode ran on this thread (tests tell a rule from the fallback by them).
struct JvpStats {
    std::uint64_t ruleOps = 0;     ///< op calls whose tangents a forward-mode rule computed
    std::uint64_t fallbackOps = 0; ///< op calls without a rule: the op's double vjp
};
JvpStats& jvpStats();

/// J_op · tangents by the double vjp of the op alone (jvp_fallback.cpp): the backward rule
/// u -> J^T u, recorded on a tape of its own, differentiated with cotangent `tangents`.
OutputList fallbackTangents(const OpDef& op, std::span<const Tensor> inputs, std::span<const Tensor> tangents,
                            const Attrs& attrs, std::span<const Tensor> outputs);

/// The tangents of an op's outputs: its rule (unless `useRules` is false), or the fallback.
/// `byRule` tells which ran.
OutputList pushForward(const OpDef& op, std::span<const Tensor> inputs, std::span<const Tensor> tangents,
                       const Attrs& attrs, std::span<const Tensor> outputs, bool useRules, bool& byRule);

class JvpTracer final : public OpTracer {
public:
    /// useRules false: every op takes the double-vjp fallback (the tests' reference for the rules).
    explicit JvpTracer(bool useRules = true) : m_useRules(useRules) {}
    ~JvpTracer() override;
    JvpTracer(const JvpTracer&) = delete;
    JvpTracer& operator=(const JvpTracer&) = delete;

    /// A handle of `primal` (linked to it for enclosing gradients) whose tangent is `tangent`.
    Tensor seed(const Tensor& primal, const Tensor& tangent);
    /// The tangent of `t`, or nullopt when it has none (its tangent is zero).
    std::optional<Tensor> tangent(const Tensor& t) const;

    /// Makes this the thread's tracer (and the engine of gradient calls) until uninstall().
    void install();
    void uninstall();

    OutputList traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs) override;

private:
    struct Entry {
        Tensor primal; ///< kept alive so its address is not reused while the tracer lives
        Tensor tangent;
    };
    void remember(const Tensor& primal, const Tensor& tangent);
    GradResult differentiate(const Function& fn, std::vector<Value> args, const Value& sens,
                             const GradRequest& request);

    bool m_useRules = true;
    OpTracer* m_saved = nullptr;
    bool m_installed = false;
    std::unique_ptr<TraceDifferentiatorGuard> m_engine;
    // Keyed by address for lookup only, never iterated (Note [Tangents by tensor]).
    std::unordered_map<const TensorImpl*, Entry> m_entries;
    std::unordered_map<const void*, std::vector<Entry>> m_byStorage;
};

/// Whether a forward-mode trace is running on this thread.
bool insideJvp();

} // namespace gradstep
