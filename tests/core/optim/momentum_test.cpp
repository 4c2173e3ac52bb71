// Tests of nn.Momentum (core/optim/momentum.cpp) against hand-computed trajectories.
// SPDX-License-Identifier: MIT
#include "optim/momentum.h"

#include "optim_test_util.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("Momentum accumulates v = u v + g from zero and steps p -= lr v")
{
    Parameter w = param64({0.0});
    Momentum opt({w}, 0.1, 0.9);
    const double expected[] = {-0.1, -0.29, -0.561}; // v = 1, 1.9, 2.71
    for (double e : expected) {
        opt({grad64({1.0})});
        CHECK(w.at(0) == Approx(e).epsilon(1e-14));
    }
    CHECK(opt.moments()[0].at(0) == Approx(2.71).epsilon(1e-14));
}

TEST_CASE("Nesterov Momentum steps p -= g lr + v u lr")
{
    Parameter w = param64({0.0});
    Momentum opt({w}, 0.1, 0.9, 0.0, true);
    opt({grad64({1.0})});
    CHECK(w.at(0) == Approx(-0.19).epsilon(1e-14));
    opt({grad64({1.0})});
    CHECK(w.at(0) == Approx(-0.461).epsilon(1e-14));
}

TEST_CASE("Momentum with weight decay uses the decayed gradient in v")
{
    Parameter w = param64({1.0});
    Momentum opt({w}, 0.1, 0.5, 0.1);
    opt({grad64({1.0})}); // g = 1.1, v = 1.1, p = 0.89
    CHECK(w.at(0) == Approx(0.89).epsilon(1e-14));
    opt({grad64({1.0})}); // g = 1.089, v = 0.55 + 1.089 = 1.639, p = 0.89 - 0.1639
    CHECK(w.at(0) == Approx(0.7261).epsilon(1e-14));
}

TEST_CASE("Momentum rejects a negative momentum")
{
    Parameter w = param64({0.0});
    CHECK_THROWS_WITH(Momentum({w}, 0.1, -0.1),
                      "for 'Momentum', the argument 'momentum' must be at least 0.0, but got -0.1");
}
