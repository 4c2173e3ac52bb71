// Tests of nn.WithLossCell and nn.TrainOneStepCell (core/nn/wrappers/*.cpp).
// SPDX-License-Identifier: MIT
#include "nn/wrappers/train_one_step_cell.h"

#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "nn/layers/dense.h"
#include "nn/losses/mse_loss.h"
#include "nn/models/lenet5.h"
#include "nn/wrappers/with_loss_cell.h"
#include "ops/elementwise.h"
#include "optim/sgd.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

std::shared_ptr<Dense> makeDense()
{
    return std::make_shared<Dense>(
        3, 2, Tensor::fromVector<double>({2, 3}, {0.1, -0.2, 0.3, 0.4, 0.5, -0.6}),
        Tensor::fromVector<double>({2}, {0.05, -0.05}));
}

const Tensor kX = Tensor::fromVector<float>({4, 3}, {1, 2, 3, -1, 0, 1, 0.5, 0.5, 0.5, 2, -2, 1});
const Tensor kY = Tensor::fromVector<float>({4, 2}, {1, 0, 0, 1, 1, 1, -1, 0});

} // namespace

TEST_CASE("WithLossCell feeds the backbone's output to the loss and keeps parameter names")
{
    auto net = std::make_shared<LeNet5>();
    WithLossCell withLoss(net, std::make_shared<MSELoss>());
    CHECK(withLoss.backboneNetwork() == net);
    CHECK(withLoss.trainableParams()[0].name() == "conv1.weight");
    CHECK(withLoss.parametersAndNames()[0].first == "_backbone.conv1.weight");
    auto dense = makeDense();
    WithLossCell small(dense, std::make_shared<MSELoss>());
    const double direct = MSELoss()((*dense)(kX).tensor(), kY).tensor().item();
    CHECK(small(kX, kY).tensor().item() == direct);
}

TEST_CASE("TrainOneStepCell returns the loss before the update and applies the optimizer to the "
          "gradients")
{
    auto dense = makeDense();
    auto reference = makeDense();
    auto withLoss = std::make_shared<WithLossCell>(dense, std::make_shared<MSELoss>());
    auto refLoss = std::make_shared<WithLossCell>(reference, std::make_shared<MSELoss>());
    TrainOneStepCell train(withLoss, std::make_shared<SGD>(dense->trainableParams(), 0.5));
    for (int step = 0; step < 3; ++step) {
        Value expected = valueAndGrad(refLoss->asFunction(), GradPosition{},
                                      reference->trainableParams())({kX, kY});
        const double loss = train(kX, kY).tensor().item();
        CHECK(loss == expected[0].tensor().item());
        const ParameterTuple params = reference->trainableParams();
        for (std::size_t i = 0; i < params.size(); ++i)
            Parameter(params[i]).assign(params[i].clone() - expected[1][i].tensor() * 0.5);
        CHECK(dense->weight().toDoubles() == reference->weight().toDoubles());
    }
    CHECK(train.optimizer()->globalStep() == 3);
}

TEST_CASE("TrainOneStepCell seeds the backward pass with sens")
{
    auto a = makeDense(), b = makeDense();
    TrainOneStepCell once(std::make_shared<WithLossCell>(a, std::make_shared<MSELoss>()),
                          std::make_shared<SGD>(a->trainableParams(), 0.1));
    TrainOneStepCell twice(std::make_shared<WithLossCell>(b, std::make_shared<MSELoss>()),
                           std::make_shared<SGD>(b->trainableParams(), 0.05), 2.0);
    once(kX, kY);
    twice(kX, kY);
    for (std::int64_t i = 0; i < 6; ++i)
        CHECK(a->weight().at(i) == Approx(b->weight().at(i)).epsilon(1e-6));
}

TEST_CASE("TrainOneStepCell needs a network with a single loss output")
{
    auto dense = makeDense();
    TrainOneStepCell train(dense, std::make_shared<SGD>(dense->trainableParams()));
    CHECK_NOTHROW(train(kX));
    class Pair : public Cell {
    public:
        Pair() : Cell("Pair") {}
        Value construct(const std::vector<Value>& a) override { return Value::tuple({a[0], a[0]}); }
    };
    TrainOneStepCell bad(std::make_shared<Pair>(), std::make_shared<SGD>(dense->trainableParams()));
    CHECK_THROWS_WITH(
        bad(kX),
        "for 'TrainOneStepCell', the network must return a single loss Tensor, got a tuple");
    CHECK_THROWS_AS(TrainOneStepCell(dense, nullptr), TypeError);
}

namespace {

struct StepLog : ExecutionObserver {
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent&) override {}
    void gradCallStarted(const GradCallEvent& e) override { kinds.push_back(e.depth == 0 ? "grad+" : "?"); }
    void gradCallFinished(const GradCallEvent& e) override
    {
        kinds.push_back("grad-");
        REQUIRE(e.value);
        loss = e.value->tensor().item();
        gradients = e.weightGrads.size();
    }
    void updateStarted(const UpdateEvent&) override { kinds.push_back("update+"); }
    void updateFinished(const UpdateEvent&) override { kinds.push_back("update-"); }
    std::vector<std::string> kinds;
    double loss = 0.0;
    std::size_t gradients = 0;
};

} // namespace

TEST_CASE("a TrainOneStepCell step is reported as a gradient call with its loss, then the update")
{
    auto dense = makeDense();
    auto withLoss = std::make_shared<WithLossCell>(dense, std::make_shared<MSELoss>());
    TrainOneStepCell train(withLoss, std::make_shared<SGD>(dense->trainableParams(), 0.5));
    StepLog log;
    ObserverGuard guard(&log);
    const double loss = train(kX, kY).tensor().item();
    CHECK(log.kinds == std::vector<std::string>{"grad+", "grad-", "update+", "update-"});
    CHECK(log.loss == loss);
    CHECK(log.gradients == 2);
}
