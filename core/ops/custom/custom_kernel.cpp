// The "Custom" op: dispatches to the CustomKernel its attrs name. SPDX-License-Identifier: MIT
#include "ops/custom/custom_kernel.h"

#include "ops/dispatch.h"
#include "ops/registry.h"
#include "tensor/errors.h"

#include <mutex>
#include <unordered_map>

namespace gradstep {

// Note [Custom kernels]
// An OpDef holds plain function pointers, one per op kind, while every ops.Custom object carries
// its own function. So the one "Custom" OpDef looks the function up by the integer attr
// "kernel", which a CustomOp gets when it is created. The table holds the kernel weakly: the
// ops.Custom object owns it, so a Python function is released with the object that wraps it
// (never after the interpreter is gone). A node recorded by an op whose object was since
// destroyed can therefore no longer run its bprop; that is an error naming the function.
// The attrs "func_name" and "func_type" are there for people: the graph, the tape dump and the
// inspector show which user function a Custom node ran.
namespace {
struct KernelTable {
    std::mutex mutex;
    std::unordered_map<std::int64_t, std::weak_ptr<const CustomKernel>> kernels;
    std::int64_t nextId = 1;
};

KernelTable& table()
{
    static KernelTable instance;
    return instance;
}

std::shared_ptr<const CustomKernel> kernelOf(const OpCall& call)
{
    if (!call.attrs.has("kernel"))
        throwValueError(call, "a Custom op needs the attr 'kernel' naming its function (use ops.Custom)");
    KernelTable& t = table();
    std::lock_guard lock(t.mutex);
    auto it = t.kernels.find(call.attrs.getInt("kernel"));
    std::shared_ptr<const CustomKernel> kernel = it == t.kernels.end() ? nullptr : it->second.lock();
    if (!kernel)
        throwValueError(call, "the function '" + call.attrs.getString("func_name", "?")
                                  + "' of this Custom op no longer exists (its ops.Custom object was destroyed)");
    return kernel;
}

void inferCustom(const OpCall& call, SpecList& out) { kernelOf(call)->infer(call, out); }

void forwardCustom(const OpCall& call, std::span<Tensor> outputs)
{
    // allocatesOutputs: the kernel sees its inputs in their own dtypes (no widening to a compute
    // dtype), as the user's function was written for them.
    SpecList specs;
    const std::shared_ptr<const CustomKernel> kernel = kernelOf(call);
    kernel->infer(call, specs);
    for (std::size_t i = 0; i < specs.size(); ++i)
        outputs[i] = Tensor::empty(specs[i].shape, specs[i].dtype);
    kernel->forward(call, outputs);
}

TensorList backwardCustom(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const OpCall call{kCustom, {}, ctx.attrs()};
    const std::shared_ptr<const CustomKernel> kernel = kernelOf(call);
    if (!kernel->backward)
        throw AutodiffError("Illegal primitive: Primitive Custom's bprop not defined (the Custom op '"
                            + kernel->funcName + "' was created without 'bprop')");
    return kernel->backward(ctx, grads);
}
} // namespace

const OpDef kCustom{"Custom", "custom", OpKind::Other, 0, -1, inferCustom, forwardCustom, backwardCustom, true};

CustomOp::CustomOp(std::shared_ptr<const CustomKernel> kernel) : m_kernel(std::move(kernel))
{
    KernelTable& t = table();
    std::lock_guard lock(t.mutex);
    for (auto it = t.kernels.begin(); it != t.kernels.end();)
        it = it->second.expired() ? t.kernels.erase(it) : std::next(it);
    m_id = t.nextId++;
    t.kernels.emplace(m_id, m_kernel);
}

OutputList CustomOp::operator()(std::span<const Tensor> inputs, const Attrs& extraAttrs) const
{
    Attrs attrs{{"func_name", m_kernel->funcName}, {"func_type", m_kernel->funcType}};
    for (const auto& [name, value] : extraAttrs.items())
        attrs.set(name, value);
    attrs.set("kernel", m_id);
    return callOp(kCustom, inputs, attrs);
}

void registerCustomOps(OpRegistry& registry) { registry.add(kCustom); }

} // namespace gradstep
