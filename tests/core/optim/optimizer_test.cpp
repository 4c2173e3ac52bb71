// Tests of the optimizer base (core/optim/optimizer.cpp): argument checks, gradient checks,
// weight decay, and how an update runs (no recording, Phase::Update events).
// SPDX-License-Identifier: MIT
#include "optim/optimizer.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "autodiff/tape.h"
#include "optim/sgd.h"
#include "optim_test_util.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

class Recorder : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& event) override
    {
        phases.push_back(event.phase);
        scopes.push_back(event.scope ? *event.scope : std::string());
    }
    std::vector<Phase> phases;
    std::vector<std::string> scopes;
};

} // namespace

TEST_CASE("optimizer arguments are checked with ValueError")
{
    Parameter w = param64({1.0});
    CHECK_THROWS_WITH(SGD({}, 0.1),
                      "for 'SGD', the parameter list is empty, expected at least one Parameter");
    CHECK_THROWS_WITH(SGD({w, w}, 0.1), "for 'SGD', the parameter 'w' is listed twice");
    CHECK_THROWS_WITH(SGD({w}, -0.1),
                      "for 'SGD', the argument 'learning_rate' must be a finite number >= 0.0, "
                      "but got -0.1");
    CHECK_THROWS_AS(SGD({w}, 0.1, 0.0, 0.0, -1.0), ValueError);
    SGD sgd({w}, 0.1);
    CHECK_THROWS_AS(sgd.setLearningRate(std::nan("")), ValueError);
}

TEST_CASE("gradients must match the parameters in number, shape and dtype")
{
    Parameter w = param64({1.0, 2.0});
    SGD sgd({w}, 0.1);
    CHECK_THROWS_WITH(sgd({}), "for 'SGD', got 0 gradients for 1 parameters");
    CHECK_THROWS_WITH(sgd({grad64({1.0})}),
                      "for 'SGD', the gradient of 'w' is [1] Float64, expected [2] Float64");
    CHECK_THROWS_AS(sgd({Tensor::fromVector<float>({2}, {1.f, 1.f})}), ShapeError);
    CHECK(sgd.globalStep() == 0);
    CHECK(w.at(0) == 1.0);
}

TEST_CASE("weight decay is added to the gradient except for beta and gamma parameters")
{
    Parameter w = param64({2.0}, "fc.weight");
    Parameter gamma = param64({2.0}, "bn.gamma");
    Parameter beta = param64({2.0}, "bn.beta");
    SGD sgd({w, gamma, beta}, 0.1, 0.0, 0.0, 0.5);
    sgd({grad64({1.0}), grad64({1.0}), grad64({1.0})});
    CHECK(w.at(0) == Approx(1.8).epsilon(1e-15)); // 2 - 0.1 * (1 + 0.5 * 2)
    CHECK(gamma.at(0) == Approx(1.9).epsilon(1e-15)); // 2 - 0.1 * 1
    CHECK(beta.at(0) == Approx(1.9).epsilon(1e-15));
    sgd({grad64({1.0}), grad64({1.0}), grad64({1.0})});
    CHECK(w.at(0) == Approx(1.61).epsilon(1e-15)); // 1.8 - 0.1 * (1 + 0.9)
}

TEST_CASE("an update records nothing and reports its ops in the update phase")
{
    Parameter w = param64({1.0, 2.0});
    SGD sgd({w}, 0.1);
    Recorder recorder;
    Tape tape;
    {
        TapeGuard guard(tape);
        ObserverGuard observe(&recorder);
        sgd({grad64({1.0, 1.0})});
    }
    CHECK(tape.size() == 0);
    REQUIRE_FALSE(recorder.phases.empty());
    for (std::size_t i = 0; i < recorder.phases.size(); ++i) {
        CHECK(recorder.phases[i] == Phase::Update);
        CHECK(recorder.scopes[i] == "SGD");
    }
    CHECK(executionContext().phase == Phase::Forward);
    CHECK(w.at(1) == Approx(1.9));
    CHECK(sgd.globalStep() == 1);
}

TEST_CASE("the parameter is updated in place, so every handle sees the new value")
{
    Parameter w = param64({1.0});
    Tensor alias = w;
    const void* storage = w.rawData();
    SGD sgd({w}, 0.5);
    sgd({grad64({1.0})});
    CHECK(alias.at(0) == 0.5);
    CHECK(w.rawData() == storage);
}
