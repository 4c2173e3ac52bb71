// nn.TrainOneStepCell. SPDX-License-Identifier: MIT
#include "nn/wrappers/train_one_step_cell.h"

#include "api/grad_events.h"
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
