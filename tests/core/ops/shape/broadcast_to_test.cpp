// Tests of broadcast_to (core/ops/shape/broadcast_to.cpp): its fill and block-copy paths against
// the general loop's results, in every storage width. SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "ops/shape_ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {
/// broadcast_to computed from its definition: out[i] = x[the index of i with broadcast axes at 0].
std::vector<double> expected(const Tensor& x, const Shape& out)
{
    const std::vector<double> v = x.toDoubles();
    std::vector<double> result;
    const int lead = out.rank() - x.rank();
    std::vector<std::int64_t> index(static_cast<std::size_t>(out.rank()), 0);
    for (std::int64_t i = 0; i < out.numel(); ++i) {
        std::int64_t rest = i;
        for (int a = out.rank() - 1; a >= 0; --a) {
            index[static_cast<std::size_t>(a)] = rest % out[a];
            rest /= out[a];
        }
        std::int64_t at = 0;
        for (int a = 0; a < x.rank(); ++a)
            at = at * x.shape()[a] + (x.shape()[a] == 1 ? 0 : index[static_cast<std::size_t>(a + lead)]);
        result.push_back(v[static_cast<std::size_t>(at)]);
    }
    return result;
}
} // namespace

TEST_CASE("broadcast_to fills from one element, repeats a trailing block, and broadcasts inner axes")
{
    for (const DType dtype : {DType::Float32, DType::Float64, DType::Float16, DType::Int8, DType::Int64, DType::Bool}) {
        INFO(dtypeName(dtype));
        const auto check = [&](const Shape& from, const Shape& to) {
            INFO(from.toString() << " to " << to.toString());
            Tensor x = arange(from, DType::Float32);
            if (dtype == DType::Bool) // alternate true and false
                x = Tensor::fromDoubles(from, [&] {
                    std::vector<double> v = x.toDoubles();
                    for (double& e : v)
                        e = static_cast<double>(static_cast<std::int64_t>(e) % 2);
                    return v;
                }(), dtype);
            else
                x = Tensor::fromDoubles(from, x.toDoubles(), dtype);
            const Tensor y = broadcastTo(x, to.toVector());
            REQUIRE(y.shape() == to);
            REQUIRE(y.dtype() == dtype);
            CHECK(y.toDoubles() == expected(x, to));
        };
        check({}, {4, 3});          // one element: a fill
        check({1, 1}, {2, 5});      // one element with axes of 1
        check({3}, {4, 3});         // a trailing block repeated
        check({1, 2, 3}, {5, 2, 3}); // the same with a leading 1
        check({2, 3}, {2, 3});      // nothing to broadcast
        check({2, 1}, {2, 3});      // an inner axis: the general loop
        check({2, 1, 3}, {4, 2, 5, 3});
        check({0, 3}, {2, 0, 3});   // empty
    }
}
