// The one table of primitive ops: audited by tests (every differentiable op has a gradient
// check), listed in the UI palette, and read by every execution mode. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <string_view>
#include <vector>

namespace gradstep {

class OpRegistry {
public:
    static const OpRegistry& instance();
    /// nullptr when no op has that name.
    const OpDef* find(std::string_view name) const;
    /// Throws ValueError naming the op when it is unknown.
    const OpDef& get(std::string_view name) const;
    const std::vector<const OpDef*>& ops() const { return m_ops; }
    /// One line per op: name, label, kind, arity, differentiable, whether vmap batches it by a
    /// rule or runs it per element (Note [Batching rules]), and whether jvp pushes tangents
    /// through it by a rule or by its double vjp (Note [Forward-mode rules]).
    std::string dump() const;

    void add(const OpDef& op);

private:
    OpRegistry() = default;
    std::vector<const OpDef*> m_ops;
};

// Each op family registers its ops here; registry.cpp calls them in order.
void registerElementwiseOps(OpRegistry& registry);
void registerReductionOps(OpRegistry& registry);
void registerShapeOps(OpRegistry& registry);
void registerNnOps(OpRegistry& registry);
void registerAutodiffOps(OpRegistry& registry);

} // namespace gradstep
