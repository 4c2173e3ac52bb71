// Higher-order gradients by composing grad (SEMANTICS.md §6): closed forms, mixed partials,
// weights, and a Hessian-vector product against finite differences. SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"
#include "tests/core/ops/gradcheck.h"

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


namespace {

// A two-layer tanh MLP with a squared-error loss, in float64.
struct Mlp {
    Parameter w1{sample({3, 4}, -1, 1, 11), "fc1.weight"};
    Parameter b1{sample({4}, -0.5, 0.5, 12), "fc1.bias"};
    Parameter w2{sample({4, 2}, -1, 1, 13), "fc2.weight"};
    ParameterTuple params() const { return {w1, b1, w2}; }

    Value operator()(const Args& a) const
    {
        Tensor hidden = tanh(matmul(a[0].tensor(), w1) + b1);
        Tensor error = matmul(hidden, w2) - a[1].tensor();
        return reduceSum(error * error);
    }
};

Tensor axpy(double alpha, const Tensor& v, const Tensor& w)
{
    std::vector<double> out = w.toDoubles();
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] += alpha * v.at(static_cast<std::int64_t>(i));
    return f64(w.shape(), out);
}

} // namespace

TEST_CASE("grad of <grad, v> is the Hessian-vector product, matching differences of the gradient")
{
    Mlp mlp;
    Args batch{sample({5, 3}, -1, 1, 21), sample({5, 2}, -1, 1, 22)};
    const TensorList v{sample({3, 4}, -1, 1, 31), sample({4}, -1, 1, 32), sample({4, 2}, -1, 1, 33)};
    GradFunction gradient = grad(mlp, None, mlp.params());
    Function gradDotV = [&](const Args& a) -> Value {
        Value g = gradient(a);
        Tensor dot = reduceSum(g[0].tensor() * v[0]);
        for (std::size_t i = 1; i < v.size(); ++i)
            dot = dot + reduceSum(g[i].tensor() * v[i]);
        return dot;
    };
    Value hvp = grad(gradDotV, None, mlp.params())(batch);
    requireTuple(hvp, 3);

    // (g(w + eps v) - g(w - eps v)) / (2 eps), moving every parameter at once.
    const double eps = 1e-5;
    const ParameterTuple params = mlp.params();
    const TensorList w0{params[0].clone(), params[1].clone(), params[2].clone()};
    auto gradientAt = [&](double step) {
        for (std::size_t i = 0; i < params.size(); ++i)
            Parameter(params[i]).assign(axpy(step, v[i], w0[i]));
        return gradient(batch);
    };
    Value plus = gradientAt(eps);
    Value minus = gradientAt(-eps);
    gradientAt(0.0);
    for (std::size_t i = 0; i < params.size(); ++i) {
        std::vector<double> expected;
        for (std::int64_t k = 0; k < params[i].numel(); ++k)
            expected.push_back((plus[i].tensor().at(k) - minus[i].tensor().at(k)) / (2 * eps));
        INFO("parameter " << params[i].name());
        requireTensor(hvp[i], params[i].shape(), expected, 1e-7);
    }
}

TEST_CASE("a Hessian-vector product by input position matches differences of the gradient")
{
    Mlp mlp;
    Tensor x = sample({5, 3}, -1, 1, 41);
    Tensor y = sample({5, 2}, -1, 1, 42);
    Tensor v = sample({5, 3}, -1, 1, 43);
    Function gradDotV = [&](const Args& a) -> Value { return reduceSum(grad(mlp, 0)(a).tensor() * v); };
    Value hvp = grad(gradDotV, 0)({x, y});
    const double eps = 1e-5;
    Tensor plus = grad(mlp, 0)({axpy(eps, v, x), y}).tensor();
    Tensor minus = grad(mlp, 0)({axpy(-eps, v, x), y}).tensor();
    std::vector<double> expected;
    for (std::int64_t k = 0; k < x.numel(); ++k)
        expected.push_back((plus.at(k) - minus.at(k)) / (2 * eps));
    requireTensor(hvp, {5, 3}, expected, 1e-7);
}
