// Shared pieces of the display tests: the records of one LeNet5 training step (forward, backward,
// Momentum update) as the debugger's recorder sees them. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "display/display_graph.h"
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

/// A synthetic training step of 2n nodes: n forward ops in Cells of 8 under one network Cell, a
/// skip edge every 4 ops (residual blocks), and the backward pass with its gradient-sum edges
/// and a cross link from each backward op to its forward op. `salt` changes the keys only.
inline std::shared_ptr<const DisplayGraph> syntheticStep(std::size_t n, std::size_t salt = 0)
{
    auto g = std::make_shared<DisplayGraph>();
    for (int side = 0; side < 2; ++side) {
        const Phase phase = side == 0 ? Phase::Forward : Phase::Backward;
        const std::string root = side == 0 ? "Net" : "Gradients";
        const int depth = rootDepth(root, phase);
        g->clusters.push_back(DisplayCluster{root, root, -1, depth, phase});
        const int rootCluster = static_cast<int>(g->clusters.size() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t op = side == 0 ? i : n - 1 - i; // backward runs in reverse
            const std::string scope = root + "/block" + std::to_string(op / 8);
            if (g->findCluster(scope) < 0)
                g->clusters.push_back(DisplayCluster{scope, "block" + std::to_string(op / 8), rootCluster, depth + 1, phase});
            DisplayNode node;
            node.phase = phase;
            node.scope = scope;
            node.cluster = g->findCluster(scope);
            node.key = std::string(side == 0 ? "F:" : "B:") + scope + "/Op#" + std::to_string(op + salt);
            node.title = op % 4 == 3 ? "Add" : "MatMul";
            node.detail = "[32, 64]";
            estimateSize(node);
            g->nodes.push_back(node);
            const std::size_t index = g->nodes.size() - 1;
            if (i > 0)
                g->edges.push_back(DisplayEdge{index - 1, index, EdgeKind::Data, {}, 1});
            if (op % 4 == 3 && op >= 3) {
                if (side == 0)
                    g->edges.push_back(DisplayEdge{index - 3, index, EdgeKind::Data, {}, 1});
                else if (i + 3 < n)
                    g->edges.push_back(DisplayEdge{index, index + 3, EdgeKind::Data, {}, 1});
            }
            if (side == 1)
                g->edges.push_back(DisplayEdge{index, op, EdgeKind::CrossLink, {}, 1});
        }
    }
    return g;
}

} // namespace gradstep::display::testing
