// Training steps as a user writes them with the nn Cells: net + loss Cell, value_and_grad over
// the trainable parameters, SGD(lr=0.01) update. MLP 784-256-128-10 at batch 64 and LeNet5 at
// batch 32, float32, one thread: the same workloads as ../shared/bench/torch_anchor.py.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "nn/layers/dense.h"
#include "nn/layers/relu.h"
#include "nn/layers/sequential_cell.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "optim/sgd.h"
#include "random/generator.h"
#include "tests/bench/timing.h"

#include <cmath>

using namespace gradstep;
using namespace gradstep::bench;

namespace {

Tensor wave(const Shape& shape)
{
    Tensor t = Tensor::empty(shape);
    float* p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = static_cast<float>(std::cos(0.13 * static_cast<double>(i)));
    return t;
}

Tensor labels(std::int64_t n)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int32_t>(i % 10);
    return Tensor::fromVector<std::int32_t>(Shape{n}, v);
}

struct NullObserver : ExecutionObserver {
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent&) override {}
};

void benchmark(const char* name, CellPtr net, const Tensor& x, const Tensor& y)
{
    auto loss = std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
    const ParameterTuple params = net->trainableParams();
    SGD optimizer(params, 0.01);
    Function forward = [&](const std::vector<Value>& a) -> Value {
        return (*loss)(std::vector<Value>{(*net)(std::vector<Value>{a[0]}), a[1]});
    };
    GradFunction step = valueAndGrad(forward, GradPosition{}, params);
    auto run = [&] { optimizer(step({x, y})[1].leaves()); };
    report(name, measure(run, 3, 2.0));
    NullObserver observer;
    ObserverGuard attach(&observer);
    report((std::string(name) + ", no-op observer attached").c_str(), measure(run, 3, 2.0));
}

} // namespace

int main()
{
    setSeed(0);
    auto mlp = std::make_shared<SequentialCell>(std::vector<CellPtr>{
        std::make_shared<Dense>(784, 256), std::make_shared<ReLU>(), std::make_shared<Dense>(256, 128),
        std::make_shared<ReLU>(), std::make_shared<Dense>(128, 10)});
    benchmark("MLP 784-256-128-10 b64 step (Cells, SGD)", mlp, wave(Shape{64, 784}), labels(64));
    benchmark("LeNet5 b32 step (Cells, SGD)", std::make_shared<LeNet5>(), wave(Shape{32, 1, 32, 32}), labels(32));
    return 0;
}
