// Shared pieces of the display tests: the records of one LeNet5 training step (forward, backward,
// Momentum update) as the debugger's recorder sees them. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "autodiff/context.h"
#include "debug/recorder.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "optim/momentum.h"
#include "random/generator.h"

#include <cmath>

namespace gradstep::display::testing {

inline Tensor wave(const Shape& shape)
{
    Tensor t = Tensor::empty(shape);
    float* p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = static_cast<float>(std::cos(0.13 * static_cast<double>(i)));
    return t;
}

/// The records of one LeNet5 step at batch 2: net + loss under value_and_grad, Momentum update.
inline std::vector<debug::RecordPtr> lenet5StepRecords()
{
    setSeed(0);
    auto net = std::make_shared<LeNet5>();
    auto loss = std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
    const ParameterTuple params = net->trainableParams();
    Momentum optimizer(params, 0.01, 0.9);
    Function forward = [&](const std::vector<Value>& a) -> Value {
        return (*loss)(std::vector<Value>{(*net)(std::vector<Value>{a[0]}), a[1]});
    };
    GradFunction step = valueAndGrad(forward, GradPosition{}, params);
    const Tensor x = wave(Shape{2, 1, 32, 32});
    const Tensor y = Tensor::fromVector<std::int32_t>(Shape{2}, {3, 7});
    debug::Recorder recorder(debug::RecorderOptions{std::size_t{1} << 26, false, 4});
    recorder.stepStarted(1);
    {
        ObserverGuard attach(&recorder);
        Value out = step({x, y});
        optimizer(out[1].leaves());
    }
    return recorder.currentRecords();
}

} // namespace gradstep::display::testing
