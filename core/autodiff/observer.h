// Observer of op execution: the debugger attaches one to pause between nodes. With none attached
// the dispatcher pays a single null check per op. Besides the node events it sees the "step"
// events: calls of gradient functions (core/api/grad_events.h) and optimizer updates.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "nn/parameter.h"
#include "ops/attrs.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <span>
#include <string>

namespace gradstep {

struct OpDef;
class Node;
struct GraphNode;
class Graph;
class Value;

struct NodeEvent {
    std::uint64_t seq = 0;
    Phase phase = Phase::Forward;
    const OpDef* op = nullptr;         ///< null for engine-level nodes without an op (leaves, custom bprop)
    const Node* node = nullptr;        ///< the recorded node (always set in the backward phase)
    const std::string* scope = nullptr; ///< Cell scope path, e.g. "LeNet5/conv1"
    const Attrs* attrs = nullptr;
    std::span<const Tensor> inputs;    ///< backward: the gradients flowing in (one per output)
    std::span<const Tensor> outputs;   ///< backward: the input gradients produced; empty on start
    const GraphNode* graphNode = nullptr; ///< graph mode: the executed node (null in PyNative)
};

/// Forward mode (ops.jvp, Note [Forward-mode rules]): the tangents of a forward node that has just
/// finished, sent after its nodeFinished. An undefined tangent is zero.
struct TangentEvent {
    std::uint64_t seq = 0;                 ///< the node's NodeEvent::seq
    const OpDef* op = nullptr;
    std::span<const Tensor> inputTangents;  ///< one per input
    std::span<const Tensor> outputTangents; ///< one per output: J_op · the input tangents
    bool byRule = true;                     ///< false: the op's double vjp gave them (no rule)
};

/// One call of a gradient function made by grad, value_and_grad or GradOperation (or one
/// TrainOneStepCell step). A call at depth 0 is a training step; grad of grad calls the inner
/// gradient function at depth 1 inside the outer call. Started events carry the request only.
struct GradCallEvent {
    std::uint64_t index = 0; ///< 1-based count of gradient-function calls on this thread
    int depth = 0;           ///< calls of gradient functions enclosing this one
    bool completed = false;  ///< finished: false when the call ended with an exception
    /// finished: fn's output (value_and_grad, TrainOneStepCell's loss); null when the API returns
    /// gradients only (grad, GradOperation) and on started events
    const Value* value = nullptr;
    std::span<const std::int64_t> positions; ///< the differentiated input positions
    std::span<const Parameter> weights;      ///< named by Parameter::name()
    std::span<const Tensor> inputGrads;      ///< finished: one per position
    std::span<const Tensor> weightGrads;     ///< finished: one per weight
};

/// One optimizer update (Phase::Update): parameters[i] is updated from gradients[i].
struct UpdateEvent {
    const std::string* optimizer = nullptr; ///< the class name: "SGD", "Momentum", "Adam"
    std::int64_t step = 0;                  ///< 1-based number of this update of the optimizer
    double learningRate = 0.0;
    std::span<const Parameter> parameters;  ///< finished: holding the updated values
    std::span<const Tensor> gradients;
};

/// A function compiled for graph mode: a cache miss, on its first call or for a new signature of
/// input shapes and dtypes (then compiles > 1: a recompile).
struct GraphCompileEvent {
    const std::string* function = nullptr;  ///< "forward_fn", "LeNet5.construct"
    const std::string* signature = nullptr; ///< "f32[32, 1, 32, 32], i32[32]"
    const Graph* graph = nullptr;           ///< the optimised graph that will run
    std::size_t compiles = 0;               ///< compilations of this function in the run so far
    bool gradient = false;                  ///< a gradient function's forward + backward graph
    double milliseconds = 0.0;              ///< source to optimised graph
};

/// A training step with loss scaling (nn.TrainOneStepWithLossScaleCell, and so amp's O2 and
/// Model with a loss_scale_manager) reached its overflow decision. Sent after the backward pass
/// and before the update, which an overflowing step skips: an observer that counts updates sees
/// no updateStarted for such a step.
struct LossScaleEvent {
    double lossScale = 0.0;     ///< the scale this step's loss (its sens) was multiplied by
    double nextLossScale = 0.0; ///< the scale after the update cell's adjustment (the next step's)
    bool overflow = false;      ///< a gradient held inf or NaN
    bool updateSkipped = false; ///< the optimizer does not run this step (overflow, unless told otherwise)
};

/// The node events are required; the step events default to nothing, so observers that only
/// follow ops need not mention them.
class ExecutionObserver {
public:
    virtual ~ExecutionObserver() = default;
    virtual void nodeStarted(const NodeEvent& event) = 0;
    virtual void nodeFinished(const NodeEvent& event) = 0;
    virtual void gradCallStarted(const GradCallEvent& /*event*/) {}
    virtual void gradCallFinished(const GradCallEvent& /*event*/) {}
    virtual void updateStarted(const UpdateEvent& /*event*/) {}
    virtual void updateFinished(const UpdateEvent& /*event*/) {}
    virtual void graphCompiled(const GraphCompileEvent& /*event*/) {}
    virtual void lossScaleReported(const LossScaleEvent& /*event*/) {}
    virtual void nodeTangents(const TangentEvent& /*event*/) {}
    /// False when node events are of no (further) use: ops then emit none, and graph mode runs
    /// as with no observer (memory plan, fused kernels, inter-op groups). Asked before each op
    /// and each graph run.
    virtual bool wantsNodeEvents() const { return true; }
};

} // namespace gradstep
