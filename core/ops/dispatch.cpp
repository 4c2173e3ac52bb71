// Eager op execution. SPDX-License-Identifier: MIT
#include "ops/dispatch.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "autodiff/tape.h"

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

void throwShapeError(const OpCall& call, const std::string& message) { throw ShapeError(fullMessage(call, message)); }
void throwDTypeError(const OpCall& call, const std::string& message) { throw DTypeError(fullMessage(call, message)); }
void throwValueError(const OpCall& call, const std::string& message) { throw ValueError(fullMessage(call, message)); }

OutputList callOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    OpCall call{op, inputs, attrs};
    checkArity(call);
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
    op.forward(call, outputs.span());
    std::shared_ptr<Node> node;
    if (ctx.recording())
        node = recordOp(op, inputs, attrs, outputs.span(), seq);
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
