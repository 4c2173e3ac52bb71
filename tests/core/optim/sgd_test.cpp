// Tests of nn.SGD (core/optim/sgd.cpp) against hand-computed trajectories.
// SPDX-License-Identifier: MIT
#include "optim/sgd.h"

#include "optim_test_util.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("plain SGD steps p -= lr * g")
{
    Parameter w = param64({1.0, -2.0});
    SGD sgd({w});
    CHECK(sgd.learningRate() == 0.1);
    sgd({grad64({0.5, 1.0})});
    CHECK(w.at(0) == Approx(0.95).epsilon(1e-15));
    CHECK(w.at(1) == Approx(-2.1).epsilon(1e-15));
    sgd({grad64({0.5, 1.0})});
    CHECK(w.at(0) == Approx(0.9).epsilon(1e-15));
    CHECK(w.at(1) == Approx(-2.2).epsilon(1e-15));
}

TEST_CASE("SGD momentum takes v = g on the first step and applies dampening only afterwards")
{
    Parameter w = param64({0.0});
    SGD sgd({w}, 0.1, 0.9, 0.1);
    const double expected[] = {-0.1, -0.28, -0.532}; // v = 1, 1.8, 2.52
    for (double e : expected) {
        sgd({grad64({1.0})});
        CHECK(w.at(0) == Approx(e).epsilon(1e-14));
    }
    CHECK(sgd.accum()[0].at(0) == Approx(2.52).epsilon(1e-14));
}

TEST_CASE("SGD with momentum 0 ignores dampening")
{
    Parameter w = param64({0.0});
    SGD sgd({w}, 0.1, 0.0, 0.5);
    sgd({grad64({1.0})});
    sgd({grad64({1.0})});
    CHECK(w.at(0) == Approx(-0.2).epsilon(1e-15));
}

TEST_CASE("Nesterov SGD steps by g + u * v")
{
    Parameter w = param64({0.0});
    SGD sgd({w}, 0.1, 0.9, 0.0, 0.0, true);
    sgd({grad64({1.0})});
    CHECK(w.at(0) == Approx(-0.19).epsilon(1e-14)); // v = 1, step 1 + 0.9
    sgd({grad64({1.0})});
    CHECK(w.at(0) == Approx(-0.461).epsilon(1e-14)); // v = 1.9, step 1 + 1.71
}

TEST_CASE("SGD rejects negative momentum or dampening and Nesterov without momentum")
{
    Parameter w = param64({0.0});
    CHECK_THROWS_WITH(SGD({w}, 0.1, -0.5),
                      "for 'SGD', the argument 'momentum' must be at least 0.0, but got -0.5");
    CHECK_THROWS_AS(SGD({w}, 0.1, 0.9, -0.1), ValueError);
    CHECK_THROWS_WITH(
        SGD({w}, 0.1, 0.0, 0.0, 0.0, true),
        "for 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal to "
        "0.0, but got 'momentum' 0, 'dampening' 0");
    CHECK_THROWS_AS(SGD({w}, 0.1, 0.9, 0.1, 0.0, true), ValueError);
}

TEST_CASE("SGD updates float32 parameters in float32")
{
    Parameter w(Tensor::fromVector<float>({1}, {1.f}), "w");
    SGD sgd({w}, 0.01);
    sgd({Tensor::fromVector<float>({1}, {0.3f})});
    CHECK(w.dtype() == DType::Float32);
    CHECK(w.data<float>()[0] == 1.f - 0.01f * 0.3f);
}
