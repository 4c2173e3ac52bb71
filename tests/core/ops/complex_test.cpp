// Complex64/Complex128: promotion, Cast, kernels against std::complex, MindSpore's refusals, and
// gradients against finite differences under MindSpore's convention (for a real loss
// L = Re(sum(conj(c) * f(z))) the gradient with respect to z is dL/dRe z + i dL/dIm z, which is
// what the backward rules return for dout = c). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

#include "tensor/dtype_storage.h"

#include <complex>

using namespace gradstep;
using namespace gradstep::testing;

namespace {
using C = std::complex<double>;

Tensor c128(const Shape& shape, const std::vector<C>& v) { return Tensor::fromVector<C>(shape, v); }
Tensor c64(const Shape& shape, const std::vector<std::complex<float>>& v) { return Tensor::fromVector<std::complex<float>>(shape, v); }

std::vector<C> complexValues(const Tensor& t)
{
    const Tensor w = convertDType(t, DType::Complex128);
    const C* p = w.data<C>();
    return {p, p + w.numel()};
}

void checkComplex(const Tensor& t, const std::vector<C>& expected, double tol = 1e-6)
{
    const std::vector<C> got = complexValues(t);
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << ": got " << got[i] << ", expected " << expected[i]);
        CHECK(std::abs(got[i] - expected[i]) <= tol * (1.0 + std::abs(expected[i])));
    }
}

// L(z) = Re(sum(conj(c) * f(z))), differentiated by the engine and by central differences.
void checkComplexGradient(const std::function<Tensor(const Tensor&)>& f, const std::vector<C>& z0,
                          const std::vector<C>& c)
{
    const Shape shape{static_cast<std::int64_t>(z0.size())};
    const Tensor cs = c128({static_cast<std::int64_t>(c.size())}, c);
    const auto loss = [&](const Tensor& z) { return reduceSum(real(mul(conj(cs), f(z)))); };
    const Tensor analytic = gradOfSum(loss, c128(shape, z0));
    CHECK(analytic.dtype() == DType::Complex128);
    const double eps = 1e-6;
    std::vector<C> numeric(z0.size());
    for (std::size_t i = 0; i < z0.size(); ++i) {
        for (const C step : {C(eps, 0), C(0, eps)}) {
            std::vector<C> plus = z0, minus = z0;
            plus[i] += step;
            minus[i] -= step;
            const double d = (loss(c128(shape, plus)).item() - loss(c128(shape, minus)).item()) / (2 * eps);
            numeric[i] += step.real() != 0 ? C(d, 0) : C(0, d);
        }
    }
    checkComplex(analytic, numeric, 1e-6);
}

const std::vector<C> kZ{{0.6, 0.7}, {-0.4, 0.9}, {0.3, -0.5}};
const std::vector<C> kSens{{-1.3, -0.1}, {0.5, 0.8}, {0.2, -0.7}};
} // namespace

TEST_CASE("complex dtypes: sizes, names and promotion")
{
    CHECK(itemSize(DType::Complex64) == 8);
    CHECK(itemSize(DType::Complex128) == 16);
    CHECK(dtypeName(DType::Complex64) == "Complex64");
    CHECK(promote(DType::Complex64, DType::Float32) == DType::Complex64);
    CHECK(promote(DType::Complex64, DType::Float64) == DType::Complex128);
    CHECK(promote(DType::Float16, DType::Complex64) == DType::Complex64);
    CHECK(promote(DType::Int64, DType::Complex64) == DType::Complex64);
    CHECK(promote(DType::Bool, DType::Complex128) == DType::Complex128);
    CHECK(promote(DType::Complex64, DType::Complex128) == DType::Complex128);
    CHECK_FALSE(isFloating(DType::Complex64));
    CHECK_FALSE(isIntegral(DType::Complex64));
    CHECK(complexPart(DType::Complex128) == DType::Float64);
}

TEST_CASE("Cast between complex and real dtypes")
{
    const Tensor r = cast(f32({2}, {1.5f, -2.f}), DType::Complex64);
    CHECK(r.dtype() == DType::Complex64);
    checkComplex(r, {{1.5, 0}, {-2, 0}});
    const Tensor z = c128({3}, {{1.75, 2}, {-3.5, -1}, {0, 4}});
    const Tensor back = cast(z, DType::Float32);
    checkValues(back, {1.75, -3.5, 0}); // the real part, as MindSpore's Cast
    checkValues(cast(z, DType::Int32), {1, -3, 0});
    checkValues(cast(z, DType::Bool), {1, 1, 1});
    checkComplex(cast(z, DType::Complex64), {{1.75, 2}, {-3.5, -1}, {0, 4}});
}

TEST_CASE("complex elementwise kernels match std::complex")
{
    const std::vector<C> a{{1, 2}, {-0.5, 0.25}};
    const std::vector<C> b{{0.5, -1}, {2, 3}};
    const Tensor ta = c128({2}, a), tb = c128({2}, b);
    checkComplex(add(ta, tb), {a[0] + b[0], a[1] + b[1]});
    checkComplex(sub(ta, tb), {a[0] - b[0], a[1] - b[1]});
    checkComplex(mul(ta, tb), {a[0] * b[0], a[1] * b[1]});
    checkComplex(div(ta, tb), {a[0] / b[0], a[1] / b[1]});
    checkComplex(neg(ta), {-a[0], -a[1]});
    checkComplex(square(ta), {a[0] * a[0], a[1] * a[1]});
    checkComplex(exp(ta), {std::exp(a[0]), std::exp(a[1])});
    checkComplex(log(ta), {std::log(a[0]), std::log(a[1])});
    checkComplex(sqrt(ta), {std::sqrt(a[0]), std::sqrt(a[1])});
    checkComplex(tanh(ta), {std::tanh(a[0]), std::tanh(a[1])});
    checkComplex(sin(ta), {std::sin(a[0]), std::sin(a[1])});
    checkComplex(cos(ta), {std::cos(a[0]), std::cos(a[1])});
    checkComplex(sigmoid(ta), {1.0 / (1.0 + std::exp(-a[0])), 1.0 / (1.0 + std::exp(-a[1]))});
    const Tensor m = abs(ta);
    CHECK(m.dtype() == DType::Float64);
    checkValues(m, {std::abs(a[0]), std::abs(a[1])});
    CHECK(abs(c64({1}, {{3.f, 4.f}})).dtype() == DType::Float32);
    checkValues(real(ta), {1, -0.5});
    checkValues(imag(ta), {2, 0.25});
    checkComplex(conj(ta), {std::conj(a[0]), std::conj(a[1])});
    checkComplex(complex(f64({2}, {1, 2}), f64({1}, {3})), {{1, 3}, {2, 3}});
    checkValues(equal(ta, c128({2}, {{1, 2}, {-0.5, 0}})), {1, 0});
    checkValues(notEqual(ta, c128({2}, {{1, 2}, {-0.5, 0}})), {0, 1});
}

TEST_CASE("complex mixed with real operands promotes and keeps the imaginary part")
{
    const Tensor z = c64({2}, {{1.f, 2.f}, {3.f, -1.f}});
    const Tensor s = add(z, f32({2}, {0.5f, 1.f}));
    CHECK(s.dtype() == DType::Complex64);
    checkComplex(s, {{1.5, 2}, {4, -1}});
    const Tensor w = mul(z, f64({1}, {2.0}));
    CHECK(w.dtype() == DType::Complex128);
    checkComplex(w, {{2, 4}, {6, -2}});
    CHECK(add(z, i32({1}, {1})).dtype() == DType::Complex64);
}

TEST_CASE("complex matmul, batch matmul, bias add and reductions")
{
    const std::vector<C> a{{1, 1}, {2, 0}, {0, -1}, {1, 2}};
    const std::vector<C> b{{0, 1}, {1, 0}, {2, -1}, {1, 1}};
    const Tensor ta = c128({2, 2}, a), tb = c128({2, 2}, b);
    checkComplex(matmul(ta, tb), {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                                  a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]});
    checkComplex(matmul(ta, tb, true, false), {a[0] * b[0] + a[2] * b[2], a[0] * b[1] + a[2] * b[3],
                                               a[1] * b[0] + a[3] * b[2], a[1] * b[1] + a[3] * b[3]});
    const Tensor batched = matmul(reshape(ta, {1, 2, 2}), reshape(tb, {1, 2, 2}));
    checkComplex(batched, complexValues(matmul(ta, tb)));
    checkComplex(biasAdd(ta, c128({2}, {{1, 0}, {0, 1}})), {a[0] + 1.0, a[1] + C(0, 1), a[2] + 1.0, a[3] + C(0, 1)});
    checkComplex(reduceSum(ta, std::vector<std::int64_t>{0}), {a[0] + a[2], a[1] + a[3]});
    checkComplex(reduceMean(ta), {(a[0] + a[1] + a[2] + a[3]) / 4.0});
    checkComplex(transpose(ta, {1, 0}), {a[0], a[2], a[1], a[3]});
    checkComplex(tile(c128({1}, {a[3]}), {3}), {a[3], a[3], a[3]});
    checkComplex(onesLike(ta), {1, 1, 1, 1});
}

TEST_CASE("ops without complex kernels refuse complex with MindSpore's TypeError")
{
    const Tensor z = c64({2}, {{1.f, 2.f}, {3.f, -1.f}});
    const std::string reluError = messageOf<DTypeError>([&] { relu(z); });
    CHECK(reluError.find("For 'ReLU', the type of 'x' should be Tensor[Bool, UInt8") == 0);
    CHECK(reluError.find("Float64], but got Tensor[Complex64].") != std::string::npos);
    const std::string maximumError = messageOf<DTypeError>([&] { maximum(f32({1}, {1.f}), z); });
    CHECK(maximumError.find("For 'Maximum', the type of 'y' should be") == 0);
    CHECK(messageOf<DTypeError>([&] { greater(z, z); }).find("but got Tensor[Complex64].") != std::string::npos);
    CHECK(messageOf<DTypeError>([&] { reduceMax(z); }).find("For 'ReduceMax'") == 0);
    CHECK(messageOf<DTypeError>([&] { complex(f32({1}, {1.f}), f64({1}, {1})); }).find("same dtype")
          != std::string::npos);
}

TEST_CASE("complex gradients follow dout * conj(df/dz) against finite differences")
{
    const Tensor w = c128({3}, {{0.2, 0.1}, {0.8, 0.4}, {-0.9, 0.7}});
    checkComplexGradient([&](const Tensor& z) { return mul(z, w); }, kZ, kSens);
    checkComplexGradient([&](const Tensor& z) { return div(w, z); }, kZ, kSens);
    checkComplexGradient([&](const Tensor& z) { return div(z, w); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return square(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return exp(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return log(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return sqrt(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return tanh(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return sigmoid(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return sin(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return cos(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return neg(sub(z, add(z, z))); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return conj(z); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return cast(abs(z), DType::Complex128); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return cast(real(z), DType::Complex128); }, kZ, kSens);
    checkComplexGradient([](const Tensor& z) { return cast(imag(z), DType::Complex128); }, kZ, kSens);
    checkComplexGradient([&](const Tensor& z) { return reshape(matmul(reshape(z, {1, 3}), reshape(w, {3, 1})), {1}); },
                         kZ, {kSens[0]});
    checkComplexGradient([&](const Tensor& z) { return reshape(matmul(reshape(w, {3, 1}), reshape(z, {1, 3}), false, false), {9}); },
                         kZ, std::vector<C>(9, C(0.3, -0.6)));
    checkComplexGradient([](const Tensor& z) { return reshape(reduceMean(z), {1}); }, kZ, {kSens[1]});
}

TEST_CASE("MindSpore's complex Dense backward: dx = dout conj(w), dw = dout conj(x), db = dout")
{
    // tests/st/ops/cpu/test_dense_op.py test_1d_complex64_backward, written as Dense composes it.
    const Tensor x = c64({3}, {{0.6f, 0.7f}, {0.7f, 0.9f}, {0.f, 0.7f}});
    const Tensor w = c64({3}, {{0.2f, 0.1f}, {0.8f, 0.4f}, {0.9f, 0.7f}});
    const Tensor b = c64({}, {{-0.5f, 0.6f}});
    const Tensor dout = c64({}, {{-1.3f, -0.1f}});
    Function fn = [&](const std::vector<Value>& in) -> Value {
        return reduceSum(real(mul(conj(dout), add(reduceSum(mul(in[0].tensor(), in[1].tensor())), in[2].tensor()))));
    };
    const Value g = grad(fn, std::vector<std::int64_t>{0, 1, 2})({x, w, b});
    checkComplex(g[0].tensor(), {{-0.27, 0.11}, {-1.08, 0.44}, {-1.24, 0.82}}, 1e-5);
    checkComplex(g[1].tensor(), {{-0.85, 0.85}, {-1.0, 1.1}, {-0.07, 0.91}}, 1e-5);
    checkComplex(g[2].tensor(), {{-1.3, -0.1}}, 1e-5);
}

TEST_CASE("real inputs of complex ops get real gradients")
{
    const Tensor re = f64({2}, {0.5, -1.0});
    const Tensor im = f64({2}, {2.0, 0.25});
    const Tensor c = c128({2}, {{0.3, -0.2}, {1.5, 0.5}});
    // L = Re(sum(conj(c) * complex(re, im))) = sum(Re c * re + Im c * im)
    const TensorList g = gradsOfSum([&](const TensorList& in) { return real(mul(conj(c), complex(in[0], in[1]))); },
                                    {re, im});
    CHECK(g[0].dtype() == DType::Float64);
    checkValues(g[0], {0.3, 1.5});
    checkValues(g[1], {-0.2, 0.5});
    // A real tensor times a complex one: the real factor's gradient is the real part.
    const Tensor z = c128({2}, {{1, 2}, {0, -1}});
    const Tensor gx = gradOfSum([&](const Tensor& x) { return real(mul(x, z)); }, re);
    CHECK(gx.dtype() == DType::Float64);
    checkValues(gx, {1, 0});
}
