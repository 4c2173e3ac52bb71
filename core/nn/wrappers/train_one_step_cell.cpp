// nn.TrainOneStepCell. SPDX-License-Identifier: MIT
#include "nn/wrappers/train_one_step_cell.h"

#include "api/grad.h"
#include "api/grad_events.h"
#include "autodiff/context.h"
#include "autodiff/engine.h"
#include "autodiff/tape.h"

namespace gradstep {

TrainOneStepCell::TrainOneStepCell(CellPtr network, std::shared_ptr<Optimizer> optimizer,
                                   double sens)
    : Cell("TrainOneStepCell", false), m_optimizer(std::move(optimizer)), m_sens(sens)
{
    if (!m_optimizer)
        throw TypeError("for 'TrainOneStepCell', the optimizer is null");
    m_network = registerChild("network", std::move(network));
}

// The step is reported like a value_and_grad call (grad_events.h) before the update, so step
// counting sees TrainOneStepCell loops as it sees hand-written ones.
Value TrainOneStepCell::construct(const std::vector<Value>& args)
{
    const ParameterTuple& weights = m_optimizer->parameters();
    GradCallScope call({}, weights);
    Value loss;
    TensorList grads;
    try {
        grads = lossAndGradients(args, loss);
    } catch (...) {
        call.fail();
        throw;
    }
    call.finish(&loss, {}, grads);
    if (m_reduction)
        grads = reduceGradients(grads, *m_reduction);
    (*m_optimizer)(grads);
    return loss;
}

// The tape is driven directly rather than through value_and_grad with sens_param, because the
// sensitivity needs the loss's shape, which is known only after the forward pass.
TensorList TrainOneStepCell::lossAndGradients(const std::vector<Value>& args, Value& lossOut)
{
    if (tracingOps())
        return tracedLossAndGradients(args, lossOut);
    Tape tape;
    Value out;
    {
        TapeGuard guard(tape);
        out = (*m_network)(args);
    }
    if (!out.isTensor())
        throw ValueError(
            "for 'TrainOneStepCell', the network must return a single loss Tensor, got "
            + std::string(out.isNone() ? "None" : "a tuple"));
    const Tensor& loss = out.tensor();
    const Tensor seed = Tensor::full(loss.shape(), m_sens, loss.dtype());
    const ParameterTuple& weights = m_optimizer->parameters();
    const TensorList targets(weights.begin(), weights.end());
    TensorList grads = backward(tape, std::span<const Tensor>(&loss, 1),
                                std::span<const Tensor>(&seed, 1), targets);
    lossOut = loss.detach();
    return grads;
}

} // namespace gradstep

namespace gradstep {

// Compiled (graph mode): the same differentiation through differentiate(), which hands it to the
// compiler's engine, so forward, backward and the update that follows are one graph. The sens
// seeds the loss's gradient; its shape is the loss's, which the trace knows only after the
// forward pass, so a sens other than 1 keeps the step in PyNative (an untraceable call).
TensorList TrainOneStepCell::tracedLossAndGradients(const std::vector<Value>& args, Value& lossOut)
{
    if (m_sens != 1.0) {
        ++executionContext().untraceableCalls;
        throw RuntimeError("for 'TrainOneStepCell', a sens other than 1.0 is not compiled");
    }
    GradRequest request;
    request.weights = m_optimizer->parameters();
    const Function network = [this](const std::vector<Value>& inputs) {
        return (*m_network)(inputs);
    };
    GradResult result = differentiate(network, args, request);
    if (!result.output.isTensor())
        throw ValueError(
            "for 'TrainOneStepCell', the network must return a single loss Tensor, got "
            + std::string(result.output.isNone() ? "None" : "a tuple"));
    lossOut = result.output;
    return result.weightGrads;
}

} // namespace gradstep
