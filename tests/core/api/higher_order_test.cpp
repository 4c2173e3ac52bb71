// Higher-order gradients by composing grad (SEMANTICS.md §6): closed forms, mixed partials,
// weights, and a Hessian-vector product against finite differences. SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

Value cube(const Args& a) { return a[0].tensor() * a[0].tensor() * a[0].tensor(); }

} // namespace

TEST_CASE("grad of grad of x^3 is 6x, and one more grad is 6")
{
    Tensor x = f64({3}, {-1.5, 0.0, 2.0});
    requireTensor(grad(cube)({x}), {3}, {6.75, 0.0, 12.0}, 1e-12);
    requireTensor(grad(grad(cube))({x}), {3}, {-9.0, 0.0, 12.0}, 1e-12);
    requireTensor(grad(grad(grad(cube)))({x}), {3}, {6.0, 6.0, 6.0}, 1e-12);
}

TEST_CASE("grad of a grad by another position gives the mixed partial derivative")
{
    // f = x*x*y: df/dx = 2xy, d2f/dxdy = 2x; df/dy = x*x, d2f/dydx = 2x
    Function f = [](const Args& a) -> Value { return a[0].tensor() * a[0].tensor() * a[1].tensor(); };
    Args at{f64({1}, {3.0}), f64({1}, {-2.0})};
    requireTensor(grad(grad(f, 0), 1)(at), {1}, {6.0}, 1e-12);
    requireTensor(grad(grad(f, 1), 0)(at), {1}, {6.0}, 1e-12);
    SECTION("a tuple-valued first-order grad is summed by the outer grad")
    {
        // d/dx (2xy + x*x) = 2y + 2x = 2
        requireTensor(grad(grad(f, Positions{0, 1}), 0)(at), {1}, {2.0}, 1e-12);
    }
}

TEST_CASE("an outer grad by weights differentiates an inner grad by position")
{
    Parameter w(f64({1}, {1.5}), "w");
    // f = w*x*x: df/dx = 2wx, whose derivative by w is 2x and by x is 2w
    Function f = [w](const Args& a) -> Value { return w * a[0].tensor() * a[0].tensor(); };
    Args at{f64({2}, {3.0, -1.0})};
    Value byWeight = grad(grad(f, 0), None, ParameterTuple{w})(at);
    requireTuple(byWeight, 1);
    requireTensor(byWeight[0], {1}, {4.0}, 1e-12); // sum over x of 2x
    requireTensor(grad(grad(f, 0))(at), {2}, {3.0, 3.0}, 1e-12);
    SECTION("and an outer grad by position differentiates an inner grad by weights")
    {
        // df/dw = sum(x*x), whose derivative by x is 2x
        requireTensor(grad(grad(f, None, w))(at), {2}, {6.0, -2.0}, 1e-12);
    }
}

TEST_CASE("grad of grad of tanh is -2 tanh(x) (1 - tanh(x)^2)")
{
    Function tanhFn = [](const Args& a) -> Value { return tanh(a[0].tensor()); };
    const std::vector<double> points{-2.0, -0.3, 0.0, 0.7, 3.0};
    std::vector<double> first, second;
    for (double p : points) {
        const double t = std::tanh(p);
        first.push_back(1 - t * t);
        second.push_back(-2 * t * (1 - t * t));
    }
    Tensor x = f64({5}, points);
    requireTensor(grad(tanhFn)({x}), {5}, first, 1e-12);
    requireTensor(grad(grad(tanhFn))({x}), {5}, second, 1e-12);
}

