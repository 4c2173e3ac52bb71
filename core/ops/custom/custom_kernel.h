// ops.Custom: a user's function as ONE primitive op ("Custom"), recorded, stepped and inspected
// like any other. The function itself (Python over NumPy, or a symbol of a shared library) lives
// in a CustomKernel; the op's attrs name it by a process-wide id. See Note [Custom kernels].
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gradstep {

/// What one ops.Custom object runs. Every function is called with the op's OpCall, so errors name
/// the op and its inputs.
struct CustomKernel {
    std::string funcName;  ///< shown in the graph: "add_pyfunc", "add.so:CustomAdd"
    std::string funcType;  ///< MindSpore's func_type: "pyfunc" or "aot"
    std::function<void(const OpCall& call, SpecList& out)> infer;
    /// Fills `outputs`, already allocated with infer's shapes and dtypes.
    std::function<void(const OpCall& call, std::span<Tensor> outputs)> forward;
    /// The user's bprop; empty when the op has none (its gradient is then an error naming it).
    std::function<TensorList(const BackwardContext& ctx, std::span<const Tensor> gradOutputs)> backward;
};

/// A kernel registered under its id: what an ops.Custom object holds (it owns the kernel; the
/// id's table holds it weakly).
class CustomOp {
public:
    explicit CustomOp(std::shared_ptr<const CustomKernel> kernel);
    /// Runs the kernel as one "Custom" node over `inputs`; `extraAttrs` are shown with it.
    OutputList operator()(std::span<const Tensor> inputs, const Attrs& extraAttrs = {}) const;
    const CustomKernel& kernel() const { return *m_kernel; }

private:
    std::shared_ptr<const CustomKernel> m_kernel;
    std::int64_t m_id = 0;
};

extern const OpDef kCustom;

class OpRegistry;
/// Adds the Custom op to the registry (registry.cpp; declared here rather than in registry.h
/// beside the op families, as this family is one op).
void registerCustomOps(OpRegistry& registry);

} // namespace gradstep
