// The nn ops composed into LeNet5 (SEMANTICS.md §7.7) against PyTorch's float64 loss and gradients
// in tests/data/golden/golden_lenet5.json (recipe version 1, seed 0): conv2d, max_pool2d, matmul,
// bias_add and sparse cross-entropy together, forward and backward. SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {

enum class Fill { Weight, Bias, Input };

// The golden recipe: computed in double, rounded once to float32 (here held in float64).
Tensor recipe(const Shape& shape, Fill fill, int layer, std::int64_t fanIn)
{
    Tensor t = Tensor::empty(shape, DType::Float64);
    double* p = t.data<double>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
        const double k = static_cast<double>(i);
        const double v = fill == Fill::Weight ? std::sin(0.37 * k + 0.11 * layer) / std::sqrt(static_cast<double>(fanIn))
                         : fill == Fill::Bias ? 0.1 * std::cos(0.37 * k + 0.11 * layer)
                                              : std::cos(0.13 * k);
        p[i] = static_cast<double>(static_cast<float>(v));
    }
    return t;
}

double l2(const Tensor& t)
{
    double s = 0;
    for (double v : t.toDoubles())
        s += v * v;
    return std::sqrt(s);
}

} // namespace

TEST_CASE("LeNet5 built from the nn ops reproduces PyTorch's float64 loss and gradients")
{
    std::vector<Parameter> p{
        Parameter(recipe({6, 1, 5, 5}, Fill::Weight, 0, 25), "conv1.weight"),
        Parameter(recipe({16, 6, 5, 5}, Fill::Weight, 1, 150), "conv2.weight"),
        Parameter(recipe({120, 400}, Fill::Weight, 2, 400), "fc1.weight"),
        Parameter(recipe({120}, Fill::Bias, 2, 400), "fc1.bias"),
        Parameter(recipe({84, 120}, Fill::Weight, 3, 120), "fc2.weight"),
        Parameter(recipe({84}, Fill::Bias, 3, 120), "fc2.bias"),
        Parameter(recipe({10, 84}, Fill::Weight, 4, 84), "fc3.weight"),
        Parameter(recipe({10}, Fill::Bias, 4, 84), "fc3.bias"),
    };
    std::vector<std::int32_t> labelValues(32);
    for (std::size_t n = 0; n < labelValues.size(); ++n)
        labelValues[n] = static_cast<std::int32_t>(n % 10);
    const Tensor labels = Tensor::fromVector<std::int32_t>({32}, labelValues);
    const Pool2dOptions pool{{2, 2}, {2, 2}, "valid"};
    const Function lenet = [&](const std::vector<Value>& a) -> Value {
        Tensor h = maxPool2d(relu(conv2d(a[0].tensor(), p[0])), pool);
        h = reshape(maxPool2d(relu(conv2d(h, p[1])), pool), {32, 400});
        h = relu(biasAdd(matmul(h, p[2], false, true), p[3]));
        h = relu(biasAdd(matmul(h, p[4], false, true), p[5]));
        const Tensor logits = biasAdd(matmul(h, p[6], false, true), p[7]);
        return reduceSum(sparseSoftmaxCrossEntropy(logits, labels)) / 32.0;
    };
    GradRequest request;
    request.positions = {0};
    request.weights = p;
    const GradResult r = differentiate(lenet, {Value(recipe({32, 1, 32, 32}, Fill::Input, 0, 1))}, request);

    CHECK(r.output.tensor().item() == Approx(2.308422032409842).epsilon(1e-12));
    // l2 norms of the float64 gradients (grad_loss.*.f64.l2 in the JSON).
    const double expected[] = {0.023133355488995443, 0.27578122678268263, 2.1241369673078596, 0.027375676057795905,
                               0.18757853390379964,  0.028220107101299408, 0.10871229392088579, 0.05469200057298009};
    for (std::size_t i = 0; i < p.size(); ++i) {
        INFO(p[i].name());
        CHECK(l2(r.weightGrads[i]) == Approx(expected[i]).epsilon(1e-10));
    }
    CHECK(l2(r.inputGrads[0]) == Approx(0.00664840794034517).epsilon(1e-10));
    CHECK(r.weightGrads[0].at(0) == Approx(-0.0032119672253967803).epsilon(1e-10));
    CHECK(r.weightGrads[1].at(0) == Approx(-0.0016341787478483141).epsilon(1e-10));
}
