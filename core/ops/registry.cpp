// The op registry. SPDX-License-Identifier: MIT
#include "ops/registry.h"

#include "ops/batching/batch_rules.h"
#include "ops/collective_ops.h"
#include "ops/custom/custom_kernel.h"
#include "ops/jvp/jvp_rules.h"

#include "tensor/errors.h"

namespace gradstep {

const OpRegistry& OpRegistry::instance()
{
    static const OpRegistry registry = [] {
        OpRegistry r;
        registerElementwiseOps(r);
        registerReductionOps(r);
        registerShapeOps(r);
        registerNnOps(r);
        registerAutodiffOps(r);
        registerCustomOps(r);
        registerCollectiveOps(r);
        return r;
    }();
    return registry;
}

void OpRegistry::add(const OpDef& op)
{
    if (find(op.name))
        throw RuntimeError("op '" + std::string(op.name) + "' is registered twice");
    m_ops.push_back(&op);
}

const OpDef* OpRegistry::find(std::string_view name) const
{
    for (const OpDef* op : m_ops)
        if (op->name == name)
            return op;
    return nullptr;
}

const OpDef& OpRegistry::get(std::string_view name) const
{
    if (const OpDef* op = find(name))
        return *op;
    throw ValueError("unknown op '" + std::string(name) + "'");
}

namespace {
/// How ops.jvp pushes tangents through the op (Note [Forward-mode rules]): its own rule, the
/// double vjp of the op, or none (not differentiable: its outputs have zero tangents).
const char* jvpColumn(const OpDef& op)
{
    if (findJvpRule(op))
        return "rule";
    return op.differentiable() ? "vjp" : "none";
}
} // namespace

std::string OpRegistry::dump() const
{
    static const char* kinds[] = {"elementwise", "reduction", "shape", "nn", "loss", "other"};
    std::string s;
    for (const OpDef* op : m_ops) {
        s += std::string(op->name) + "\t" + std::string(op->label) + "\t" + kinds[static_cast<int>(op->kind)]
             + "\tinputs=" + std::to_string(op->minInputs)
             + (op->maxInputs == op->minInputs ? "" : ".." + (op->maxInputs < 0 ? std::string("n") : std::to_string(op->maxInputs)))
             + (op->differentiable() ? "\tdifferentiable" : "\tnot differentiable")
             + (findBatchRule(*op) ? "\tvmap=rule" : "\tvmap=loop") + "\tjvp=" + jvpColumn(*op) + "\n";
    }
    return s;
}

} // namespace gradstep
