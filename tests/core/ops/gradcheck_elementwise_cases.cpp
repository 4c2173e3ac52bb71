// Gradient-check cases of the elementwise ops. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/gelu_grad_ops.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

GRADCHECK_CASES({
    {"Add", "same shape", [](const TensorList& x) { return mul(add(x[0], x[1]), x[0]); }, {sample({2, 3}, -1, 1, 1), sample({2, 3}, -1, 1, 2)}},
    {"Add", "broadcast [2, 3] + [3] and [2, 1]", [](const TensorList& x) { return mul(add(add(x[0], x[1]), x[2]), x[0]); },
     {sample({2, 3}, -1, 1, 1), sample({3}, -1, 1, 2), sample({2, 1}, -1, 1, 3)}},
    {"Mul", "broadcast [4, 1, 3] * [2, 1]", [](const TensorList& x) { return mul(mul(x[0], x[1]), x[1]); },
     {sample({4, 1, 3}, -1, 1, 1), sample({2, 1}, -1, 1, 2)}},
    {"Mul", "0-D scalar times a matrix", [](const TensorList& x) { return mul(mul(x[0], x[1]), x[0]); },
     {sample({}, 0.5, 1, 3), sample({2, 2}, -1, 1, 4)}},
    {"Neg", "neg", [](const TensorList& x) { return mul(neg(x[0]), x[0]); }, {sample({5})}},
    {"Cast", "float64 -> float32 -> float64 keeps the gradient",
     [](const TensorList& x) { return mul(cast(cast(x[0], DType::Float32), DType::Float64), x[0]); }, {sample({3})},
     // float32 rounding of the value is below the tolerance; the gradient path is what is checked.
     false, [](const TensorList& x) { return mul(x[0], x[0]); }},
});

namespace {
// Points away from the kinks (0 for abs/relu/sign) and the ties of maximum/minimum.
Tensor awayFromZero(const Shape& shape, unsigned seed)
{
    Tensor t = sample(shape, 0.2, 1.2, seed);
    double* p = t.data<double>();
    for (std::int64_t i = 0; i < t.numel(); i += 2)
        p[i] = -p[i];
    return t;
}

Tensor boolMask(const Shape& shape, const std::vector<bool>& v) { return Tensor::fromVector<bool>(shape, v); }
} // namespace

// Arithmetic.
GRADCHECK_CASES({
    {"Sub", "same shape", [](const TensorList& x) { return mul(sub(x[0], x[1]), x[0]); },
     {sample({2, 3}, -1, 1, 1), sample({2, 3}, -1, 1, 2)}},
    {"Sub", "broadcast [2, 3] - [3]", [](const TensorList& x) { return square(sub(x[0], x[1])); },
     {sample({2, 3}, -1, 1, 1), sample({3}, -1, 1, 2)}},
    {"Sub", "0-D minus [2, 1]", [](const TensorList& x) { return mul(sub(x[0], x[1]), x[1]); },
     {sample({}, -1, 1, 3), sample({2, 1}, -1, 1, 4)}},
    {"RealDiv", "same shape", [](const TensorList& x) { return mul(div(x[0], x[1]), x[0]); },
     {sample({2, 3}, -1, 1, 1), sample({2, 3}, 0.5, 1.5, 2)}},
    {"RealDiv", "broadcast [2, 3] / [2, 1]", [](const TensorList& x) { return mul(div(x[0], x[1]), x[1]); },
     {sample({2, 3}, -1, 1, 1), sample({2, 1}, -1.5, -0.5, 2)}},
    {"RealDiv", "0-D over [3]", [](const TensorList& x) { return div(x[0], x[1]); },
     {sample({}, 0.5, 1, 3), sample({3}, 0.5, 1.5, 4)}},
    {"Pow", "broadcast positive base [2, 3] ^ [3]", [](const TensorList& x) { return mul(pow(x[0], x[1]), x[1]); },
     {sample({2, 3}, 0.5, 2, 1), sample({3}, -1.5, 2.5, 2)}},
    {"Pow", "0-D base ^ [2, 2]", [](const TensorList& x) { return pow(x[0], x[1]); },
     {sample({}, 1.2, 1.8, 3), sample({2, 2}, -1, 2, 4)}},
    {"Pow", "negative base to the constant power 3",
     [](const TensorList& x) { return pow(x[0], Tensor::scalar(3.0, DType::Int32)); }, {sample({4}, -2, -0.5, 5)}},
    {"Neg", "0-D", [](const TensorList& x) { return mul(neg(x[0]), exp(x[0])); }, {sample({}, -1, 1, 6)}},
    {"Abs", "both signs", [](const TensorList& x) { return mul(abs(x[0]), x[0]); }, {awayFromZero({2, 3}, 1)}},
    {"Square", "square", [](const TensorList& x) { return mul(square(x[0]), x[0]); }, {sample({5})}},
    {"Sign", "zero gradient of a step", [](const TensorList& x) { return mul(sign(x[0]), square(x[0])); },
     {awayFromZero({5}, 2)}},
    {"Round", "zero gradient away from the halves",
     [](const TensorList& x) { return mul(round(x[0]), square(x[0])); },
     {values({4}, {0.2, 1.7, -2.4, 3.1})}},
    {"Maximum", "broadcast [2, 3] vs [3], no ties",
     [](const TensorList& x) { return mul(maximum(x[0], x[1]), x[0]); },
     {values({2, 3}, {0.1, -0.5, 0.9, -0.8, 0.6, 0.3}), values({3}, {0.4, -0.2, 0.5})}},
    {"Maximum", "0-D vs [4]", [](const TensorList& x) { return square(maximum(x[0], x[1])); },
     {values({}, {0.25}), values({4}, {-1.0, 0.7, 0.1, 1.3})}},
    {"Minimum", "broadcast [2, 1] vs [3], no ties",
     [](const TensorList& x) { return mul(minimum(x[0], x[1]), minimum(x[0], x[1])); },
     {values({2, 1}, {0.1, -0.5}), values({3}, {0.4, -0.7, -0.2})}},
});

// Transcendental.
GRADCHECK_CASES({
    {"Exp", "exp", [](const TensorList& x) { return mul(exp(x[0]), x[0]); }, {sample({2, 3})}},
    {"Exp", "0-D", [](const TensorList& x) { return exp(mul(x[0], x[0])); }, {sample({}, -1, 1, 2)}},
    {"Log", "positive", [](const TensorList& x) { return mul(log(x[0]), x[0]); }, {sample({2, 3}, 0.3, 2)}},
    {"Sqrt", "positive", [](const TensorList& x) { return mul(sqrt(x[0]), x[0]); }, {sample({4}, 0.3, 2)}},
    {"Rsqrt", "positive", [](const TensorList& x) { return mul(rsqrt(x[0]), x[0]); }, {sample({4}, 0.3, 2)}},
    {"Sin", "sin", [](const TensorList& x) { return mul(sin(x[0]), x[0]); }, {sample({5}, -3, 3)}},
    {"Cos", "cos", [](const TensorList& x) { return mul(cos(x[0]), x[0]); }, {sample({5}, -3, 3)}},
    {"Erf", "erf", [](const TensorList& x) { return mul(erf(x[0]), x[0]); }, {sample({5}, -2, 2)}},
});

// Activations.
GRADCHECK_CASES({
    {"ReLU", "both sides of the kink", [](const TensorList& x) { return mul(relu(x[0]), x[0]); },
     {awayFromZero({2, 3}, 3)}},
    {"ReluGrad", "linear in dy and flat in x",
     [](const TensorList& v) { return mul(reluGrad(v[0], v[1]), v[0]); },
     {sample({2, 3}, -1, 1, 5), awayFromZero({2, 3}, 6)}},
    {"LeakyReLU", "alpha 0.1", [](const TensorList& x) { return mul(leakyRelu(x[0], 0.1), x[0]); },
     {awayFromZero({2, 3}, 4)}},
    {"Sigmoid", "sigmoid", [](const TensorList& x) { return mul(sigmoid(x[0]), x[0]); }, {sample({5}, -3, 3)}},
    {"Tanh", "tanh", [](const TensorList& x) { return mul(tanh(x[0]), x[0]); }, {sample({5}, -2, 2)}},
    {"Softplus", "softplus", [](const TensorList& x) { return mul(softplus(x[0]), x[0]); }, {sample({5}, -3, 3)}},
    {"GeLU", "tanh approximation", [](const TensorList& x) { return mul(gelu(x[0]), x[0]); },
     {sample({2, 3}, -3, 3)}},
    {"GeLU", "exact erf form", [](const TensorList& x) { return mul(gelu(x[0], false), x[0]); },
     {sample({2, 3}, -3, 3, 2)}},
    {"GeLUGrad", "tanh form, as a function of dy and x (x's gradient is gelu'')",
     [](const TensorList& v) { return mul(geluGrad(v[0], v[1], true), v[0]); },
     {sample({2, 3}, -1, 1, 7), sample({2, 3}, -3, 3, 8)}},
    {"GeLUGrad", "erf form, as a function of dy and x",
     [](const TensorList& v) { return mul(geluGrad(v[0], v[1], false), v[0]); },
     {sample({2, 3}, -1, 1, 9), sample({2, 3}, -3, 3, 10)}},
});

// Three-input ops.
GRADCHECK_CASES({
    {"ClipByValue", "x [2, 3], min [3], max [2, 1]: every route",
     [](const TensorList& x) { return square(clipByValue(x[0], x[1], x[2])); },
     {values({2, 3}, {-0.9, 0.1, 0.8, 0.3, -0.2, 1.4}), values({3}, {-0.5, -0.4, -0.1}), values({2, 1}, {0.5, 1.0})}},
    {"ClipByValue", "0-D bounds", [](const TensorList& x) { return mul(clipByValue(x[0], x[1], x[2]), x[0]); },
     {values({4}, {-0.9, -0.1, 0.2, 0.7}), values({}, {-0.5}), values({}, {0.5})}},
    {"Select", "condition [2, 3], x [3], y [2, 1]",
     [](const TensorList& x) { return mul(select(x[0], x[1], x[2]), x[1]); },
     {boolMask({2, 3}, {true, false, true, false, false, true}), sample({3}, -1, 1, 1), sample({2, 1}, -1, 1, 2)}},
    {"Select", "0-D condition", [](const TensorList& x) { return square(select(x[0], x[1], x[2])); },
     {boolMask({}, {false}), sample({2}, -1, 1, 3), sample({2}, -1, 1, 4)}},
});
