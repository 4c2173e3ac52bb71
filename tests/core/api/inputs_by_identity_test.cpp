// Note [Inputs by identity] (core/api/inputs_by_identity.h): one Tensor at several positions of a
// PyNative gradient call is one input. SPDX-License-Identifier: MIT
#include "api/inputs_by_identity.h"
#include "tests/core/api/api_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// def f(a, b): return sum(a * a * b)
Value cubeLike(const Args& a) { return reduceSum(a[0].tensor() * a[0].tensor() * a[1].tensor()); }

Tensor x() { return f32({2}, {1, 2}); }

} // namespace

TEST_CASE("one tensor at two positions: its whole gradient at the last, zeros at the first")
{
    const Tensor t = x();
    const Value g = grad(cubeLike, Positions{0, 1})({t, t});
    requireTuple(g, 2);
    requireTensor(g[0], {2}, {0, 0});
    requireTensor(g[1], {2}, {3, 12}); // d sum(x^3) = 3x^2
    requireTensor(grad(cubeLike, std::int64_t{0})({t, t}), {2}, {0, 0});
    requireTensor(grad(cubeLike, std::int64_t{1})({t, t}), {2}, {3, 12});
    SECTION("two tensors with equal values are two inputs")
    {
        const Value h = grad(cubeLike, Positions{0, 1})({t, x()});
        requireTensor(h[0], {2}, {2, 8}); // 2ab
        requireTensor(h[1], {2}, {1, 4}); // a^2
    }
}

TEST_CASE("an engine that differentiates by position gets the shared positions and sums them")
{
    const Tensor t = x();
    const Args args{t, t};
    std::vector<std::size_t> asked;
    // The engine sees copies, so it differentiates each position on its own (as a compiled graph does).
    const auto byPosition = [&](const GradRequest& r) {
        asked.push_back(r.positions.size());
        return differentiateOnTape(cubeLike, {Value(t.detach()), Value(t.detach())}, Value(), r);
    };
    GradRequest onlySecond;
    onlySecond.positions = {1};
    const GradResult second = differentiateByIdentity(args, onlySecond, byPosition);
    REQUIRE(second.inputGrads.size() == 1);
    requireTensor(Value(second.inputGrads[0]), {2}, {3, 12}); // 2ab + a^2 at a = b = x
    REQUIRE(asked.back() == 2);
    GradRequest both;
    both.positions = {0, 1};
    const GradResult all = differentiateByIdentity(args, both, byPosition);
    requireTensor(Value(all.inputGrads[0]), {2}, {0, 0});
    requireTensor(Value(all.inputGrads[1]), {2}, {3, 12});
    SECTION("distinct tensors pass straight through")
    {
        const GradResult plain = differentiateByIdentity({t, x()}, both, byPosition);
        requireTensor(Value(plain.inputGrads[0]), {2}, {2, 8});
        requireTensor(Value(plain.inputGrads[1]), {2}, {1, 4});
    }
}
