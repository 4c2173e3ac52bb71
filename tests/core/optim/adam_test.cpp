// Tests of nn.Adam (core/optim/adam.cpp) against trajectories computed by hand from the kernel
// form l = lr sqrt(1 - b2^t) / (1 - b1^t), p -= l m / (sqrt(v) + eps), with p0 = 1, lr 0.1,
// betas 0.9 / 0.999, eps 1e-3 (large, so its placement shows) and gradients 1, -0.5, 2.
// SPDX-License-Identifier: MIT
#include "optim/adam.h"

#include "optim_test_util.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

const double kGrads[] = {1.0, -0.5, 2.0};

void checkTrajectory(Adam& adam, Parameter& w, const double (&expected)[3])
{
    for (std::size_t t = 0; t < 3; ++t) {
        adam({grad64({kGrads[t]})});
        INFO("step " << t + 1);
        CHECK(w.at(0) == Approx(expected[t]).epsilon(1e-13));
    }
}

} // namespace

TEST_CASE("Adam folds bias correction into the step size and adds eps to the uncorrected sqrt(v)")
{
    Parameter w = param64({1.0});
    Adam adam({w}, 0.1, 0.9, 0.999, 1e-3);
    adam({grad64({1.0})});
    // m = 0.1, v = 0.001, l = sqrt(0.001): step 0.1 sqrt(0.001) / (sqrt(0.001) + 0.001); the
    // textbook form would step 0.1 / (1 + 0.001) = 0.0999.
    CHECK(1.0 - w.at(0)
          == Approx(0.1 * std::sqrt(0.001) / (std::sqrt(0.001) + 1e-3)).epsilon(1e-13));
    CHECK(1.0 - w.at(0) == Approx(0.09693465699682846).epsilon(1e-13));
    CHECK(adam.moment1()[0].at(0) == Approx(0.1).epsilon(1e-15));
    CHECK(adam.moment2()[0].at(0) == Approx(0.001).epsilon(1e-13));
}

TEST_CASE("Adam follows the kernel trajectory over three steps")
{
    Parameter w = param64({1.0});
    Adam adam({w}, 0.1, 0.9, 0.999, 1e-3);
    checkTrajectory(adam, w, {0.9030653430031715, 0.8771645182016697, 0.8122494630113013});
}

TEST_CASE("Nesterov Adam steps along m b1 + (1 - b1) g")
{
    Parameter w = param64({1.0});
    Adam adam({w}, 0.1, 0.9, 0.999, 1e-3, 0.0, true);
    checkTrajectory(adam, w, {0.815824151706026, 0.8248894403865515, 0.7114531320793145});
}

TEST_CASE("Adam with weight decay adds wd * w to the gradient first")
{
    Parameter w = param64({1.0});
    Adam adam({w}, 0.1, 0.9, 0.999, 1e-3, 0.1);
    checkTrajectory(adam, w, {0.9027944627181019, 0.8669578904643329, 0.7982387061334651});
}

TEST_CASE("Adam defaults are MindSpore's and its arguments are checked")
{
    Parameter w = param64({1.0});
    Adam adam({w});
    CHECK(adam.learningRate() == 1e-3);
    CHECK_THROWS_WITH(Adam({w}, 1e-3, 1.0),
                      "for 'Adam', the argument 'beta1' must be in range (0.0, 1.0), but got 1");
    CHECK_THROWS_AS(Adam({w}, 1e-3, 0.9, 0.0), ValueError);
    CHECK_THROWS_AS(Adam({w}, 1e-3, 0.9, 0.999, 0.0), ValueError);
}
