// Tests of Dropout (core/ops/nn/dropout.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("dropout with the same seed draws the same mask and scales kept values by 1/keep_prob")
{
    const Tensor x = Tensor::full({1000}, 2.0);
    const TensorList a = dropoutWithMask(x, 0.8, 42);
    const TensorList b = dropoutWithMask(x, 0.8, 42);
    CHECK(a[1].toDoubles() == b[1].toDoubles());
    CHECK(a[1].toDoubles() != dropoutWithMask(x, 0.8, 43)[1].toDoubles());
    double kept = 0;
    for (std::int64_t i = 0; i < x.numel(); ++i) {
        kept += a[1].at(i);
        CHECK(a[0].at(i) == Approx(a[1].at(i) * 2.0 / 0.8));
    }
    CHECK(kept > 740);
    CHECK(kept < 860);
}

TEST_CASE("dropout with keep_prob 1 is the identity")
{
    const Tensor x = Tensor::fromDoubles({3}, {1, -2, 3});
    CHECK(dropout(x, 1.0, 0).toDoubles() == x.toDoubles());
}

TEST_CASE("dropout's gradient is the mask divided by keep_prob")
{
    const Tensor x = Tensor::full({64}, 1.0, DType::Float64);
    const Tensor mask = dropoutWithMask(x, 0.5, 9)[1];
    const Tensor g = grad([](const std::vector<Value>& a) { return Value(dropout(a[0].tensor(), 0.5, 9)); })(
                         {Value(x)})
                         .tensor();
    for (std::int64_t i = 0; i < x.numel(); ++i)
        CHECK(g.at(i) == mask.at(i) * 2.0);
}

TEST_CASE("dropout rejects keep_prob of 0 or less and above 1")
{
    const Tensor x = Tensor::zeros({2});
    CHECK_THROWS_AS(dropout(x, 0.0, 0), ValueError);
    CHECK_THROWS_AS(dropout(x, 1.5, 0), ValueError);
    CHECK_THROWS_WITH(dropout(x, -0.1, 0), Catch::Contains("'Dropout'") && Catch::Contains("keep_prob"));
    CHECK_THROWS_AS(dropout(Tensor::zeros({2}, DType::Int32), 0.5, 0), DTypeError);
}
