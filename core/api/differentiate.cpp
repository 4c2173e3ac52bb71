// differentiate(): runs a function under a tape, seeds its outputs and runs the backward engine.
// The public APIs in grad.cpp only validate arguments and shape what this returns.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "api/inputs_by_identity.h"

#include "autodiff/context.h"
#include "autodiff/engine.h"
#include "autodiff/tape.h"
#include "ops/autodiff_ops.h"

#include <utility>

namespace gradstep {

namespace {

thread_local GraphDifferentiator t_graphEngine;
thread_local TraceDifferentiator t_traceEngine;

// MindSpore refuses to differentiate inside a no-grad region (_Grad.__call__, PyNative) instead of
// silently returning zeros, which is what running the tape there would give. While compiling, the
// compiler's engine takes the call (Note [Gradients inside compiled code]).
void requireGradEnabled()
{
    ExecutionContext& ctx = executionContext();
    if (ctx.tracer && !t_traceEngine) {
        ++ctx.untraceableCalls;
        throw RuntimeError("a gradient function cannot be traced into a graph");
    }
    if (ctx.noGradDepth > 0 && !ctx.tracer) // a tracer turns recording off while it traces
        throw RuntimeError("In no_grad context, you can not calculate gradient");
}

// sens_param: the cotangent is the last positional argument and is not passed to fn
// (_pynative_forward_run runs fn on args[:-1]).
Value takeSens(std::vector<Value>& args)
{
    if (args.empty())
        throw TypeError("sens_param is set, so the last positional argument must be the sens, "
                        "but the function got no arguments");
    Value sens = std::move(args.back());
    args.pop_back();
    return sens;
}

// grad does not check `0 <= pos < args_num` in Python (grad_func.py only converts the type); the
// engines do, with one text: graph mode's GetGradByPosition raises IndexError, PyNative's
// GetInputGrads a RuntimeError, and PyNative checks only when the function has inputs (with none,
// the positions select nothing and the gradients are an empty tuple).
void checkPositions(std::vector<std::int64_t>& positions, std::size_t argCount, bool graphMode)
{
    if (argCount == 0 && !graphMode) {
        positions.clear();
        return;
    }
    for (std::int64_t p : positions) {
        if (p < static_cast<std::int64_t>(argCount))
            continue;
        const std::string text = "Position index " + std::to_string(p) + " is exceed input size.";
        if (graphMode)
            throw IndexError(text);
        throw RuntimeError(text);
    }
}

// A grad input gets its own node so that its gradient has a slot even when the caller's tensor
// is a plain constant, and so that an outer grad still sees it as a function of the caller's.
// Returns the target whose gradient is read back.
//
// Bool tensors carry no gradient: MindSpore returns zeros like them (AutoDiff::GetTensorGrad
// builds a zeros-like value for a tensor without a gradient). Integer inputs are differentiated
// like float ones, their gradient in their own dtype (carriesGradient).
Tensor watchInput(Value& slot, std::int64_t position)
{
    if (!slot.isTensor())
        throw TypeError("grad_position " + std::to_string(position) + " refers to "
                        + (slot.isNone() ? std::string("None") : std::string("a tuple"))
                        + ", but only a Tensor argument can be differentiated");
    const Tensor& x = slot.tensor();
    if (!carriesGradient(x.dtype()))
        return x.detach();
    Tensor in[] = {x};
    Tensor outs[] = {x.detach()};
    recordCustom("Input" + std::to_string(position), in, outs,
                 [](const BackwardContext& ctx, std::span<const Tensor> grads) {
                     return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
                 });
    slot = Value(outs[0]);
    return outs[0];
}

// Note [Inputs by identity] (api/inputs_by_identity.h): positions sharing a Tensor share its alias.
TensorList watchInputs(std::vector<Value>& args, const std::vector<std::int64_t>& positions)
{
    const std::vector<std::size_t> owner = identityOwners(args);
    TensorList targets;
    for (std::int64_t p : positions) {
        const auto at = static_cast<std::size_t>(p);
        if (owner[at] != at) // shadowed: its variable is never reached, so its gradient is zeros
            targets.push_back(args[at].tensor().detach());
        else
            targets.push_back(watchInput(args[at], p));
    }
    for (std::size_t i = 0; i < args.size(); ++i)
        if (owner[i] != i)
            args[i] = args[owner[i]];
    return targets;
}

// Without sens every output leaf is seeded with ones, so a tuple output is differentiated as the
// sum of all its elements (SEMANTICS.md §1.5).
TensorList onesLikeEach(const TensorList& roots)
{
    TensorList seeds;
    for (const Tensor& r : roots)
        seeds.push_back(Tensor::full(r.shape(), 1.0, r.dtype()));
    return seeds;
}



} // namespace

// has_aux: MindSpore wraps fn so that outputs 1..n pass through ops.stop_gradient
// (_Grad.__call__'s aux_fn, which also raises the ValueError below; SEMANTICS.md §1.6 lists both
// as UNCONFIRMED) and only output 0 is seeded. The cut happens after the inner tape has
// stopped, so only enclosing grads see the StopGradient nodes: nothing flows back through aux.
void splitAux(GradResult& result)
{
    const Value& out = result.output;
    if (!out.isTuple() || out.size() < 2)
        throw ValueError("When has_aux is True, origin fn requires more than one outputs.");
    std::vector<Value> aux;
    for (std::size_t i = 1; i < out.size(); ++i)
        aux.push_back(out[i].map([](const Tensor& t) { return stopGradient(t); }));
    std::vector<Value> full{out[0]};
    full.insert(full.end(), aux.begin(), aux.end());
    result.aux = Value::tuple(std::move(aux));
    result.output = Value::tuple(std::move(full));
}

SpecList specsOf(const TensorList& tensors)
{
    SpecList specs;
    for (const Tensor& t : tensors)
        specs.push_back({t.shape(), t.dtype()});
    return specs;
}

// The sens must match the differentiated outputs leaf by leaf, in shape and dtype. MindSpore's
// newest engine also accepts a sens the output broadcasts to and sums it down; we follow the
// documented contract ("same shape/dtype as the output", GradOperation docs) and refuse it.
TensorList checkedSens(const Value& sens, const SpecList& roots)
{
    TensorList seeds = sens.leaves();
    if (seeds.size() != roots.size())
        throw RuntimeError("The given sens gradient's size should be same as out of network! got "
                           + std::to_string(seeds.size()) + " sens tensors for "
                           + std::to_string(roots.size()) + " output tensors");
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        if (!(seeds[i].shape() == roots[i].shape))
            throw ValueError("The sens shape should be " + roots[i].shape.toString() + " (output "
                             + std::to_string(i) + "), but got " + seeds[i].shape().toString());
        if (seeds[i].dtype() != roots[i].dtype)
            throw TypeError("The sens dtype should be " + std::string(dtypeName(roots[i].dtype))
                            + " (output " + std::to_string(i) + "), but got "
                            + std::string(dtypeName(seeds[i].dtype())));
    }
    return seeds;
}

GradRequest effectiveRequest(const GradRequest& request, const std::vector<Value>& args)
{
    GradRequest r = request;
    const std::size_t inputs = args.size() - (r.sensParam && !args.empty() ? 1 : 0);
    checkPositions(r.positions, inputs, static_cast<bool>(t_graphEngine));
    std::erase_if(r.positions, [&](std::int64_t p) { return !args[static_cast<std::size_t>(p)].isTensor(); });
    return r;
}

GraphDifferentiatorGuard::GraphDifferentiatorGuard(GraphDifferentiator engine)
    : m_saved(std::exchange(t_graphEngine, std::move(engine)))
{
}

GraphDifferentiatorGuard::~GraphDifferentiatorGuard() { t_graphEngine = std::move(m_saved); }

TraceDifferentiatorGuard::TraceDifferentiatorGuard(TraceDifferentiator engine)
    : m_saved(std::exchange(t_traceEngine, std::move(engine)))
{
}

TraceDifferentiatorGuard::~TraceDifferentiatorGuard() { t_traceEngine = std::move(m_saved); }

GradResult differentiate(const Function& fn, std::vector<Value> args, const GradRequest& given)
{
    requireGradEnabled();
    const GradRequest request = effectiveRequest(given, args); // args with the sens still last
    const Value sens = request.sensParam ? takeSens(args) : Value();
    if (GraphDifferentiator engine = std::exchange(t_graphEngine, nullptr))
        return engine(args, sens, request);
    if (executionContext().tracer) {
        const TraceDifferentiator engine = t_traceEngine; // a copy: the engine may nest calls
        return engine(fn, args, sens, request);
    }
    return differentiateOnTape(fn, std::move(args), sens, request);
}

GradResult differentiateOnTape(const Function& fn, std::vector<Value> args, const Value& sens,
                               const GradRequest& request)
{
    Tape tape;
    TapeGuard guard(tape);
    TensorList targets = watchInputs(args, request.positions);
    targets.insert(targets.end(), request.weights.begin(), request.weights.end());
    GradResult result;
    result.output = fn(args);
    guard.release();

    if (request.hasAux)
        splitAux(result);
    // has_aux with sens: the sens is the cotangent of output 0 only, the part that is seeded
    // (AutoDiff::BuildGraphRoot). INFERRED: MindSpore's own size check disagrees with it.
    const TensorList roots = request.hasAux ? result.output[0].leaves() : result.output.leaves();
    const TensorList seeds = request.sensParam ? checkedSens(sens, specsOf(roots)) : onesLikeEach(roots);
    const TensorList grads = backward(tape, roots, seeds, targets);
    const auto split = grads.begin() + static_cast<std::ptrdiff_t>(request.positions.size());
    result.inputGrads.assign(grads.begin(), split);
    result.weightGrads.assign(split, grads.end());
    return result;
}

} // namespace gradstep
