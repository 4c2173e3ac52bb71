// Helpers that let the grad API tests read like the MindSpore snippets they check.
// SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <variant>
#include <vector>

namespace gradstep::testing {

using Args = std::vector<Value>;
using Positions = std::vector<std::int64_t>;

/// Python's None for grad_position and weights: grad(net, None, weights).
inline constexpr std::monostate None{};

inline Tensor f32(const Shape& shape, const std::vector<double>& v)
{
    return Tensor::fromDoubles(shape, v, DType::Float32);
}

inline Tensor f64(const Shape& shape, const std::vector<double>& v)
{
    return Tensor::fromDoubles(shape, v, DType::Float64);
}

/// Requires `v` to be a Tensor of `shape` whose values are within `margin` of `expected`.
inline void requireTensor(const Value& v, const Shape& shape, const std::vector<double>& expected,
                          double margin = 1e-5)
{
    INFO("value: " << v.toString());
    REQUIRE(v.isTensor());
    REQUIRE(v.tensor().shape() == shape);
    for (std::size_t i = 0; i < expected.size(); ++i)
        CHECK(v.tensor().at(static_cast<std::int64_t>(i)) == Approx(expected[i]).margin(margin));
}

/// Requires `v` to be a tuple of exactly `n` items.
inline void requireTuple(const Value& v, std::size_t n)
{
    INFO("value: " << v.toString());
    REQUIRE(v.isTuple());
    REQUIRE(v.size() == n);
}

} // namespace gradstep::testing
