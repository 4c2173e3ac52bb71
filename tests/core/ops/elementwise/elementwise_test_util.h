// Shared helpers of the elementwise op tests: tensor literals, value checks that understand
// NaN and infinities, gradients at a point and caught error messages. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace gradstep::testing {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline Tensor f32(const Shape& shape, const std::vector<float>& v)
{
    return Tensor::fromVector<float>(shape, v);
}
inline Tensor f64(const Shape& shape, const std::vector<double>& v)
{
    return Tensor::fromVector<double>(shape, v);
}
inline Tensor i32(const Shape& shape, const std::vector<std::int32_t>& v)
{
    return Tensor::fromVector<std::int32_t>(shape, v);
}
inline Tensor i64(const Shape& shape, const std::vector<std::int64_t>& v)
{
    return Tensor::fromVector<std::int64_t>(shape, v);
}
inline Tensor boolean(const Shape& shape, const std::vector<bool>& v)
{
    return Tensor::fromVector<bool>(shape, v);
}

/// Every element of t against `expected`: NaN matches NaN, an infinity must match exactly (sign
/// included), anything else approximately (relative 1e-6, absolute 1e-12).
inline void checkValues(const Tensor& t, const std::vector<double>& expected)
{
    REQUIRE(t.numel() == static_cast<std::int64_t>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double got = t.at(static_cast<std::int64_t>(i));
        const double want = expected[i];
        INFO("element " << i << ": got " << got << ", expected " << want);
        if (std::isnan(want))
            CHECK(std::isnan(got));
        else if (std::isinf(want))
            CHECK(got == want);
        else
            CHECK(got == Approx(want).epsilon(1e-6).margin(1e-12));
    }
}

/// d/dx sum(f(x)) at x.
inline Tensor gradOfSum(const std::function<Tensor(const Tensor&)>& f, const Tensor& x)
{
    Function fn = [&](const std::vector<Value>& a) -> Value { return reduceSum(f(a[0].tensor())); };
    return grad(fn)({x}).tensor();
}

/// The gradients of sum(f(inputs...)) with respect to every input.
inline TensorList gradsOfSum(const std::function<Tensor(const TensorList&)>& f,
                             const TensorList& inputs)
{
    Function fn = [&](const std::vector<Value>& a) -> Value {
        TensorList in;
        for (const Value& v : a)
            in.push_back(v.tensor());
        return reduceSum(f(in));
    };
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        positions.push_back(static_cast<std::int64_t>(i));
    const Value g = grad(fn, positions)({inputs.begin(), inputs.end()});
    TensorList out;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        out.push_back(g[i].tensor());
    return out;
}

/// The message of the E that f throws; fails the test when f throws nothing.
template <class E, class F> std::string messageOf(F&& f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    FAIL("no exception was thrown");
    return {};
}

} // namespace gradstep::testing
