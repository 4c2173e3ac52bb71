// Gradient calls inside a vmapped function, differentiated over the whole batch at once.
// SPDX-License-Identifier: MIT
#include "api/batch_tracer.h"

#include "autodiff/engine.h"
#include "autodiff/tape.h"
#include "graph/graph.h"
#include "ops/reduction.h"
#include "ops/autodiff_ops.h"
#include "ops/shape_ops.h"

namespace gradstep {

// Note [Per-element gradients]
// vmap(grad(f)) asks for f's gradient at every batch element. The elements are independent, so
// the gradient of the sum of the elements' outputs with respect to a batched input is, slice by
// slice, each element's own gradient. An input that is not batched (a weight, an argument with
// in_axes None) is shared by the elements, and its gradient must not be summed over them: it is
// broadcast along the batch first and differentiated as that batched copy, whose slices each
// element uses alone. A weight (a Parameter the function reads by itself, not through its
// arguments) is made to stand for its broadcast copy while the function runs. One forward and
// one backward pass over the batch then give every element's gradients, which MindSpore's vmap
// of grad computes too (without the loop the previous gradstep ran).

namespace {
std::vector<std::int64_t> batchShape(std::int64_t batch, const Tensor& t)
{
    std::vector<std::int64_t> shape{batch};
    for (std::int64_t d : t.shape().toVector())
        shape.push_back(d);
    return shape;
}

// A node of its own whose output is the gradient target (as differentiate() watches inputs).
Tensor watched(const Tensor& physical, const std::string& name)
{
    if (!carriesGradient(physical.dtype()))
        return physical.detach();
    Tensor in[] = {physical};
    Tensor outs[] = {physical.detach()};
    recordCustom(name, in, outs, [](const BackwardContext& ctx, std::span<const Tensor> grads) {
        return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
    });
    return outs[0];
}

// A weight's per-element copies as a gradient target with a shape and no values (Note
// [Per-element weights] in batch_tracer.cpp). Only a gradient taken around the vmap (grad of
// vmap of grad) needs the weight's own gradient, the sum of the copies'.
Tensor weightTarget(const Tensor& weight, std::int64_t batch)
{
    Tensor in[] = {weight};
    Tensor outs[] = {symbolicTensor({Shape(batchShape(batch, weight)), weight.dtype()})};
    recordCustom("Weight", in, outs, [](const BackwardContext& ctx, std::span<const Tensor> grads) {
        if (!ctx.needsGrad(0) || !executionContext().recording())
            return TensorList{Tensor()};
        return TensorList{reduceSum(grads[0], {0})};
    });
    return outs[0];
}

} // namespace

GradResult BatchTracer::differentiate(const Function& fn, std::vector<Value> args, const Value& sens,
                                      const GradRequest& request)
{
    ++batchStats().batchedGrads;
    // The broadcast copies are made before the tape starts: its backward pass then stops at the
    // targets instead of also summing each weight's per-element gradients back into one.
    TensorList sources;
    {
        OuterContext outer(*this);
        for (std::int64_t p : request.positions) {
            const Tensor x = args[static_cast<std::size_t>(p)].tensor();
            const std::optional<Tensor> own = physical(x);
            sources.push_back(own ? *own : broadcastTo(x, batchShape(m_batchSize, x)));
        }
    }
    Tape tape;
    TapeGuard guard(tape);
    TensorList targets;
    std::vector<Tensor> mapped;
    struct Unmap {
        BatchTracer& tracer;
        std::vector<Tensor>& tensors;
        ~Unmap()
        {
            for (const Tensor& t : tensors)
                tracer.unmapTemporary(t);
        }
    } unmap{*this, mapped};
    {
        OuterContext outer(*this);
        for (std::size_t i = 0; i < sources.size(); ++i)
            targets.push_back(watched(sources[i], "Input" + std::to_string(request.positions[i])));
        for (const Parameter& w : request.weights)
            targets.push_back(weightTarget(w, m_batchSize));
    }
    for (std::size_t i = 0; i < request.positions.size(); ++i)
        args[static_cast<std::size_t>(request.positions[i])] = Value(logicalFor(targets[i]));
    for (std::size_t i = 0; i < request.weights.size(); ++i) {
        mapWeight(request.weights[i], targets[request.positions.size() + i]);
        mapped.push_back(request.weights[i]);
    }
    GradResult result;
    result.output = fn(args);
    guard.release();

    if (request.hasAux)
        splitAux(result);
    const TensorList roots = request.hasAux ? result.output[0].leaves() : result.output.leaves();
    const TensorList sensLeaves = request.sensParam ? checkedSens(sens, specsOf(roots)) : TensorList{};
    // A root that does not depend on the batch does not depend on the targets either (they are
    // all batched), so it adds nothing to their gradients.
    TensorList physicalRoots, seeds;
    TensorList grads;
    {
        OuterContext outer(*this);
        for (std::size_t i = 0; i < roots.size(); ++i) {
            const std::optional<Tensor> root = physical(roots[i]);
            if (!root)
                continue;
            physicalRoots.push_back(*root);
            if (!request.sensParam) {
                seeds.push_back(Tensor::full(root->shape(), 1.0, root->dtype()));
                continue;
            }
            const std::optional<Tensor> seed = physical(sensLeaves[i]);
            seeds.push_back(seed ? *seed : broadcastTo(sensLeaves[i], batchShape(m_batchSize, sensLeaves[i])));
        }
        grads = backward(tape, physicalRoots, seeds, targets);
    }
    for (std::size_t i = 0; i < grads.size(); ++i) {
        const Tensor logical = logicalFor(grads[i]);
        (i < request.positions.size() ? result.inputGrads : result.weightGrads).push_back(logical);
    }
    return result;
}

} // namespace gradstep
