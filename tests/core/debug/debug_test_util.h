// Shared pieces of the debugger tests: a tiny net trained the way a script does, with a recorder
// attached and the step calls the Session makes. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "autodiff/context.h"
#include "debug/recorder.h"
#include "nn/layers/dense.h"
#include "nn/layers/relu.h"
#include "nn/layers/sequential_cell.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "optim/sgd.h"
#include "random/generator.h"

#include <cmath>

namespace gradstep::debug::testing {

inline Tensor wave(const Shape& shape, double scale = 1.0)
{
    Tensor t = Tensor::empty(shape);
    float* p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = static_cast<float>(scale * std::cos(0.7 * static_cast<double>(i)));
    return t;
}

inline NodeRecord recordOf(std::string op, Phase phase, std::vector<Tensor> inputs, std::vector<Tensor> outputs)
{
    NodeRecord r;
    r.seq = 7;
    r.opSeq = 7;
    r.op = op;
    r.label = op;
    r.scope = "Net/block";
    r.phase = phase;
    r.fullName = (phase == Phase::Backward ? "Gradients/" : "") + r.scope + "/" + op;
    r.location = SourceLocation{std::make_shared<const std::string>("/src/train.py"), 27, 5, 0};
    for (std::size_t i = 0; i < inputs.size(); ++i)
        r.inputs.push_back(TensorRecord{TensorId::ofExternal(i + 1), true, computeStats(inputs[i]), {}, false, {}, {}});
    for (std::size_t i = 0; i < outputs.size(); ++i)
        r.outputs.push_back(TensorRecord{TensorId::ofOutput(r.seq, static_cast<std::uint32_t>(i)), true,
                                         computeStats(outputs[i]), {}, false, {}, {}});
    return r;
}

/// Dense(4, 3) -> ReLU -> Dense(3, 2), softmax cross-entropy, value_and_grad, SGD.
class TinyTraining {
public:
    explicit TinyTraining(double learningRate = 0.1, double inputScale = 1.0)
        : m_x(wave(Shape{5, 4}, inputScale)),
          m_y(Tensor::fromVector<std::int32_t>(Shape{5}, {0, 1, 0, 1, 1}))
    {
        setSeed(3);
        m_net = std::make_shared<SequentialCell>(std::vector<CellPtr>{
            std::make_shared<Dense>(4, 3), std::make_shared<ReLU>(), std::make_shared<Dense>(3, 2)});
        m_loss = std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
        m_params = m_net->trainableParams();
        m_optimizer = std::make_unique<SGD>(m_params, learningRate);
        Function forward = [this](const std::vector<Value>& a) -> Value {
            return (*m_loss)(std::vector<Value>{(*m_net)(std::vector<Value>{a[0]}), a[1]});
        };
        m_step = valueAndGrad(forward, GradPosition{}, m_params);
    }

    const ParameterTuple& params() const { return m_params; }
    Tensor& input() { return m_x; }

    /// One step as the Session drives it: stepStarted, the script's step, stepFinished.
    StepSummary step(Recorder& recorder, std::int64_t k)
    {
        recorder.stepStarted(k);
        Value out;
        {
            ObserverGuard attach(&recorder);
            out = m_step({m_x, m_y});
            (*m_optimizer)(out[1].leaves());
        }
        std::vector<ParameterState> states;
        const TensorList grads = out[1].leaves();
        for (std::size_t i = 0; i < m_params.size(); ++i)
            states.push_back({m_params[i].name(), grads[i], m_params[i]});
        return recorder.stepFinished(k, out[0].tensor().item(), states);
    }

private:
    Tensor m_x, m_y;
    CellPtr m_net;
    std::shared_ptr<SoftmaxCrossEntropyWithLogits> m_loss;
    ParameterTuple m_params;
    std::unique_ptr<SGD> m_optimizer;
    GradFunction m_step;
};

} // namespace gradstep::debug::testing
