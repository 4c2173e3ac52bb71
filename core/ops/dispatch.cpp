// Eager op execution. SPDX-License-Identifier: MIT
#include "ops/dispatch.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "autodiff/tape.h"
#include "ops/complex_support.h"
#include "ops/compute_dtype.h"
#include "ops/elementwise.h"
#include "profile/op_timer.h"

#include <array>
#include <new>

namespace gradstep {

const Attrs& noAttrs()
{
    static const Attrs empty;
    return empty;
}

std::string OpCall::describe() const
{
    std::string s = "inputs ";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (i)
            s += ", ";
        s += inputs[i].defined() ? inputs[i].shape().toString() + " " + std::string(dtypeName(inputs[i].dtype()))
                                 : "None";
    }
    if (!attrs.empty())
        s += "; attrs " + attrs.toString();
    return s;
}

namespace {
std::string fullMessage(const OpCall& call, const std::string& message)
{
    return "for '" + std::string(call.op.name) + "', " + message + " (" + call.describe() + ")";
}

void checkArity(const OpCall& call)
{
    const int n = static_cast<int>(call.inputs.size());
    const OpDef& op = call.op;
    if (n < op.minInputs || (op.maxInputs >= 0 && n > op.maxInputs)) {
        std::string expected = std::to_string(op.minInputs);
        if (op.maxInputs != op.minInputs)
            expected += op.maxInputs < 0 ? " or more" : " to " + std::to_string(op.maxInputs);
        throw TypeError("for '" + std::string(op.name) + "', expected " + expected + " inputs, got "
                        + std::to_string(n));
    }
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        if (!call.inputs[i].defined())
            throw TypeError("for '" + std::string(op.name) + "', input " + std::to_string(i)
                            + " is not a tensor");
        else if (call.inputs[i].isDynamicPlaceholder())
            throw ValueError("for '" + std::string(op.name) + "', input '" + inputName(op, i)
                             + "' is a dynamic-shape placeholder (Tensor(shape=..., dtype=...) with None "
                               "dimensions): it has no values and only describes the inputs of "
                               "Cell.set_inputs; call the network with real tensors");
}

void emit(ExecutionContext& ctx, bool finished, std::uint64_t seq, const OpCall& call,
          std::span<const Tensor> outputs, const Node* node)
{
    NodeEvent event{seq, ctx.phase, &call.op, node, ctx.scope.get(), &call.attrs, call.inputs, outputs};
    if (finished)
        ctx.observer->nodeFinished(event);
    else
        ctx.observer->nodeStarted(event);
}
} // namespace

std::string inputName(const OpDef& op, std::size_t i)
{
    struct Names {
        std::string_view op;
        std::array<std::string_view, 4> inputs;
    };
    // MindSpore's own argument names where they are not x, y.
    static constexpr std::array<Names, 12> kNames{{
        {"Select", {"condition", "x", "y", ""}},
        {"Gather", {"input_params", "input_indices", "", ""}},
        {"OneHot", {"indices", "", "", ""}},
        {"UnsortedSegmentSum", {"x", "segment_ids", "", ""}},
        {"SparseSoftmaxCrossEntropyWithLogits", {"logits", "labels", "", ""}},
        {"SoftmaxCrossEntropyWithLogits", {"logits", "labels", "", ""}},
        {"MatMul", {"x1", "x2", "", ""}},
        {"BatchMatMul", {"x", "y", "", ""}},
        {"BiasAdd", {"input_x", "bias", "", ""}},
        {"Conv2D", {"x", "w", "", ""}},
        {"ClipByValue", {"x", "clip_value_min", "clip_value_max", ""}},
        {"Pow", {"x", "y", "", ""}},
    }};
    for (const Names& n : kNames)
        if (n.op == op.name && i < n.inputs.size() && !n.inputs[i].empty())
            return std::string(n.inputs[i]);
    if (i < 2 && op.maxInputs != 1)
        return i == 0 ? "x" : "y";
    return i == 0 ? "x" : "input_" + std::to_string(i);
}

void throwInputDType(const OpCall& call, std::size_t input, DTypeSet allowed)
{
    std::string list;
    for (DType d : kAllDTypes)
        if (allowed & dtypeBit(d))
            list += (list.empty() ? "" : ", ") + std::string(dtypeName(d));
    throw DTypeError("For '" + std::string(call.op.name) + "', the type of '" + inputName(call.op, input)
                     + "' should be Tensor[" + list + "], but got Tensor["
                     + std::string(dtypeName(call.input(input).dtype())) + "].");
}

void requireInputDType(const OpCall& call, std::size_t input, DTypeSet allowed)
{
    if (!(allowed & dtypeBit(call.input(input).dtype())))
        throwInputDType(call, input, allowed);
}

void throwShapeError(const OpCall& call, const std::string& message) { throw ShapeError(fullMessage(call, message)); }
void throwDTypeError(const OpCall& call, const std::string& message) { throw DTypeError(fullMessage(call, message)); }
void throwValueError(const OpCall& call, const std::string& message) { throw ValueError(fullMessage(call, message)); }

// Note [Mixed precision]
// MindSpore's PyNative executor casts, before running an op, every float tensor input (and the
// float tensors inside tuple inputs) to the mixed-precision type of the innermost Cell that has
// one (Cell.to_float, which amp's levels set), so a Dense marked float16 multiplies float16
// inputs by a float16 copy of its float32 weight and the gradient flows back through the Cast
// into float32. Only forward ops are cast: gradients and optimizer updates run in the dtypes the
// forward pass gave them. Cast itself is left alone, so an explicit cast inside such a Cell
// (amp's output cast back to float32) does what it says.
namespace {
bool castsForMixedPrecision(const OpDef& op, std::span<const Tensor> inputs, DType target)
{
    if (op.name == "Cast")
        return false;
    for (const Tensor& t : inputs)
        if (t.defined() && isFloating(t.dtype()) && t.dtype() != target)
            return true;
    return false;
}
} // namespace

OutputList callOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    if (const std::optional<DType> mixed = executionContext().mixedPrecision;
        mixed && executionContext().phase == Phase::Forward && castsForMixedPrecision(op, inputs, *mixed)) {
        TensorList mixedInputs;
        mixedInputs.reserve(inputs.size());
        for (const Tensor& t : inputs)
            mixedInputs.push_back(t.defined() && isFloating(t.dtype()) && t.dtype() != *mixed ? cast(t, *mixed) : t);
        return callOp(op, mixedInputs, attrs);
    }
    OpCall call{op, inputs, attrs};
    checkArity(call);
    checkComplexInputs(call);
    ExecutionContext& ctx = executionContext();
    if (ctx.tracer)
        return ctx.tracer->traceOp(op, inputs, attrs);
    SpecList specs;
    op.infer(call, specs);
    OutputList outputs;
    if (!op.allocatesOutputs)
        for (const TensorSpec& spec : specs)
            outputs.push_back(Tensor::empty(spec.shape, spec.dtype));
    else
        for (std::size_t i = 0; i < specs.size(); ++i)
            outputs.push_back(Tensor());
    const std::uint64_t seq = ctx.nextSeq++;
    const bool observe = ctx.observingNodes();
    if (observe)
        emit(ctx, false, seq, call, {}, nullptr);
    std::shared_ptr<Node> node;
    try {
        {
            const profile::OpTimer timer(call, nullptr);
            runKernel(call, outputs.span());
        }
        if (ctx.recording())
            node = recordOp(op, inputs, attrs, outputs.span(), seq);
    } catch (const std::bad_alloc&) {
        // A work buffer or the tape node: no size is known, so the op and its operands say what
        // was being computed (a failed output allocation names its bytes in Tensor::empty).
        std::size_t bytes = 0;
        for (const TensorSpec& spec : specs)
            bytes += static_cast<std::size_t>(spec.shape.numel()) * itemSize(spec.dtype);
        throw AllocationError(fullMessage(call, "cannot allocate the memory its kernel needs besides the "
                                                    + std::to_string(bytes) + " bytes of its outputs"));
    }
    if (observe && ctx.beforeNodeFinished)
        ctx.beforeNodeFinished(seq, call, outputs.span());
    if (observe)
        emit(ctx, true, seq, call, outputs.span(), node.get());
    return outputs;
}

Tensor callOp1(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    OutputList out = callOp(op, inputs, attrs);
    return std::move(out[0]);
}

} // namespace gradstep
