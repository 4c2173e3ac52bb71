// Gradient-check cases of the nn ops: every registered nn op, first and second order. Each op's
// output is multiplied by something that depends on the inputs again, so the second-order check
// exercises the backward rules' own backward rules. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

Tensor squared(const Tensor& y) { return mul(y, y); }

std::vector<GradCheckCase> matmulCases()
{
    std::vector<GradCheckCase> cases;
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            const Shape a = ta ? Shape{3, 2} : Shape{2, 3};
            const Shape b = tb ? Shape{4, 3} : Shape{3, 4};
            cases.push_back({"MatMul", std::string("2-D transpose_a=") + (ta ? "true" : "false") + " transpose_b="
                                           + (tb ? "true" : "false"),
                             [ta, tb](const TensorList& x) { return squared(matmul(x[0], x[1], ta, tb)); },
                             {sample(a, -1, 1, 1), sample(b, -1, 1, 2)}});
        }
    cases.push_back({"BatchMatMul", "[2, 3, 4] x [4, 5]: B broadcast over the batch",
                     [](const TensorList& x) { return squared(matmul(x[0], x[1])); },
                     {sample({2, 3, 4}, -1, 1, 3), sample({4, 5}, -1, 1, 4)}});
    cases.push_back({"BatchMatMul", "[2, 1, 3, 2] x [3, 2, 2]: batch dims (2, 1) and (3,) broadcast",
                     [](const TensorList& x) { return squared(matmul(x[0], x[1])); },
                     {sample({2, 1, 3, 2}, -1, 1, 5), sample({3, 2, 2}, -1, 1, 6)}});
    cases.push_back({"BatchMatMul", "transpose flags with batch broadcast: [2, 4, 3]^T x [1, 5, 4]^T",
                     [](const TensorList& x) { return squared(matmul(x[0], x[1], true, true)); },
                     {sample({2, 4, 3}, -1, 1, 7), sample({1, 5, 4}, -1, 1, 8)}});
    cases.push_back({"BatchMatMul", "transpose_a only, A broadcast: [3, 2]^T x [2, 3, 4]",
                     [](const TensorList& x) { return squared(matmul(x[0], x[1], true, false)); },
                     {sample({3, 2}, -1, 1, 9), sample({2, 3, 4}, -1, 1, 10)}});
    return cases;
}

GradCheckCase convCase(const char* name, Shape x, Shape w, Conv2dOptions o)
{
    return {"Conv2D", name, [o](const TensorList& v) { return squared(conv2d(v[0], v[1], o)); },
            {sample(x, -1, 1, 21), sample(w, -1, 1, 22)}};
}

std::vector<GradCheckCase> convCases()
{
    const Conv2dOptions strided = convOptions({2, 2}, "pad", {1, 0, 2, 1}, {1, 1}, 1);
    const Conv2dOptions dilated = convOptions({1, 1}, "same", {0, 0, 0, 0}, {2, 2}, 1);
    const Conv2dOptions grouped = convOptions({1, 2}, "valid", {0, 0, 0, 0}, {1, 1}, 2);
    const Conv2dOptions sameStrided = convOptions({2, 2}, "same", {0, 0, 0, 0}, {1, 1}, 1);
    const Conv2dOptions pointwise = convOptions({1, 1}, "valid", {0, 0, 0, 0}, {1, 1}, 1);
    std::vector<GradCheckCase> cases{
        convCase("stride 2, explicit padding (1, 0, 2, 1)", {2, 2, 5, 6}, {3, 2, 3, 2}, strided),
        convCase("dilation 2, same padding", {1, 2, 6, 5}, {2, 2, 2, 3}, dilated),
        convCase("group 2, stride (1, 2), valid", {1, 4, 4, 5}, {4, 2, 3, 2}, grouped),
        convCase("stride 2, same padding with an odd total", {1, 2, 5, 4}, {2, 2, 2, 3}, sameStrided),
        convCase("1x1 kernel (no im2col copy)", {2, 3, 3, 2}, {2, 3, 1, 1}, pointwise),
    };
    cases.push_back({"Conv2DBackpropInput", "stride 2, explicit padding, as a function of dy and w",
                     [strided](const TensorList& v) {
                         return squared(conv2dBackpropInput(v[0], v[1], {2, 2, 5, 6}, strided));
                     },
                     {sample({2, 3, 2, 4}, -1, 1, 23), sample({3, 2, 3, 2}, -1, 1, 24)}});
    cases.push_back({"Conv2DBackpropInput", "group 2, dilation 2, same padding",
                     [](const TensorList& v) {
                         const Conv2dOptions o = convOptions({1, 1}, "same", {0, 0, 0, 0}, {2, 2}, 2);
                         return squared(conv2dBackpropInput(v[0], v[1], {1, 4, 4, 4}, o));
                     },
                     {sample({1, 2, 4, 4}, -1, 1, 25), sample({2, 2, 2, 2}, -1, 1, 26)}});
    cases.push_back({"Conv2DBackpropFilter", "stride 2, explicit padding, as a function of dy and x",
                     [strided](const TensorList& v) {
                         return squared(conv2dBackpropFilter(v[0], v[1], {3, 2, 3, 2}, strided));
                     },
                     {sample({2, 3, 2, 4}, -1, 1, 27), sample({2, 2, 5, 6}, -1, 1, 28)}});
    cases.push_back({"Conv2DBackpropFilter", "group 2, stride (1, 2), valid",
                     [grouped](const TensorList& v) {
                         return squared(conv2dBackpropFilter(v[0], v[1], {4, 2, 3, 2}, grouped));
                     },
                     {sample({1, 4, 2, 2}, -1, 1, 29), sample({1, 4, 4, 5}, -1, 1, 30)}});
    return cases;
}

Pool2dOptions poolOptions(std::int64_t kernel, std::int64_t stride, std::string mode)
{
    Pool2dOptions o;
    o.kernel = {kernel, kernel};
    o.stride = {stride, stride};
    o.padMode = std::move(mode);
    return o;
}

std::vector<GradCheckCase> poolCases()
{
    // Random values are distinct, so no window has a tie within the finite-difference step.
    const Pool2dOptions valid = poolOptions(2, 2, "valid");
    const Pool2dOptions same = poolOptions(3, 2, "same");
    const Pool2dOptions overlap = poolOptions(3, 1, "valid");
    std::vector<GradCheckCase> cases;
    for (const auto& [name, o] : {std::pair{"kernel 2 stride 2 valid", valid}, std::pair{"kernel 3 stride 2 same", same},
                                  std::pair{"kernel 3 stride 1 valid, overlapping windows", overlap}}) {
        cases.push_back({"MaxPool", name, [o](const TensorList& x) { return squared(maxPool2d(x[0], o)); },
                         {sample({2, 2, 5, 5}, -1, 1, 31)}});
        cases.push_back({"AvgPool", name, [o](const TensorList& x) { return squared(avgPool2d(x[0], o)); },
                         {sample({1, 2, 5, 5}, -1, 1, 32)}});
    }
    cases.push_back({"MaxPoolGrad", "kernel 3 stride 2 same, linear in dy and flat in x",
                     [same](const TensorList& v) { return squared(maxPoolGrad(v[0], v[1], same)); },
                     {sample({1, 2, 5, 5}, -1, 1, 33), sample({1, 2, 3, 3}, -1, 1, 34)}});
    cases.push_back({"MaxPoolGradGrad", "kernel 3 stride 1 valid, linear in g and flat in x",
                     [overlap](const TensorList& v) { return squared(maxPoolGradGrad(v[0], v[1], overlap)); },
                     {sample({1, 2, 5, 5}, -1, 1, 35), sample({1, 2, 5, 5}, -1, 1, 36)}});
    // Positive and negative pooled values, so some windows' gradients are masked and some pass.
    cases.push_back({"MaxPoolReluGrad", "kernel 2 stride 2 valid, linear in dy and flat in y",
                     [valid](const TensorList& v) { return squared(maxPoolReluGrad(v[0], v[1], valid)); },
                     {sample({1, 2, 4, 4}, -1, 1, 39), sample({1, 2, 2, 2}, -1, 1, 40)}});
    cases.push_back({"MaxPoolReluGrad", "kernel 3 stride 2 same (the general kernel)",
                     [same](const TensorList& v) { return squared(maxPoolReluGrad(v[0], v[1], same)); },
                     {sample({1, 2, 5, 5}, -1, 1, 33), sample({1, 2, 3, 3}, -1, 1, 34)}});
    cases.push_back({"AvgPoolGrad", "kernel 3 stride 2 same: windows with fewer elements",
                     [same](const TensorList& v) { return squared(avgPoolGrad(v[0], {1, 2, 5, 5}, same)); },
                     {sample({1, 2, 3, 3}, -1, 1, 37)}});
    cases.push_back({"AvgPoolGrad", "kernel 2 stride 2 valid with a dropped last row",
                     [valid](const TensorList& v) { return squared(avgPoolGrad(v[0], {1, 1, 5, 4}, valid)); },
                     {sample({1, 1, 2, 2}, -1, 1, 38)}});
    return cases;
}

std::vector<GradCheckCase> otherCases()
{
    const Tensor labels = Tensor::fromVector<std::int32_t>({3}, {2, 0, 3});
    const Tensor dense = sample({3, 4}, 0.1, 1, 41);
    return {
        {"BiasAdd", "NCHW [2, 3, 2, 2] + [3]", [](const TensorList& x) { return squared(biasAdd(x[0], x[1])); },
         {sample({2, 3, 2, 2}, -1, 1, 42), sample({3}, -1, 1, 43)}},
        {"BiasAdd", "dense [4, 3] + [3]", [](const TensorList& x) { return mul(biasAdd(x[0], x[1]), x[0]); },
         {sample({4, 3}, -1, 1, 44), sample({3}, -1, 1, 45)}},
        {"Softmax", "last axis", [](const TensorList& x) { return mul(softmax(x[0]), x[0]); }, {sample({3, 4}, -2, 2, 46)}},
        {"Softmax", "axis 1 of [2, 3, 2]", [](const TensorList& x) { return mul(softmax(x[0], 1), x[0]); },
         {sample({2, 3, 2}, -2, 2, 47)}},
        {"LogSoftmax", "last axis", [](const TensorList& x) { return mul(logSoftmax(x[0]), x[0]); },
         {sample({3, 4}, -2, 2, 48)}},
        {"LogSoftmax", "axis 0", [](const TensorList& x) { return squared(logSoftmax(x[0], 0)); },
         {sample({3, 2}, -2, 2, 49)}},
        {"Dropout", "keep_prob 0.6, seed 7", [](const TensorList& x) { return mul(dropout(x[0], 0.6, 7), x[0]); },
         {sample({4, 5}, -1, 1, 50)}},
        {"SparseSoftmaxCrossEntropyWithLogits", "Int32 labels held constant",
         [](const TensorList& x) { return squared(sparseSoftmaxCrossEntropy(x[0], x[1])); },
         {sample({3, 5}, -2, 2, 51), labels}},
        {"SoftmaxCrossEntropyWithLogits", "labels that do not sum to 1 (held constant)",
         [dense](const TensorList& x) { return squared(softmaxCrossEntropy(x[0], dense)); },
         {sample({3, 4}, -2, 2, 52)}},
    };
}

std::vector<GradCheckCase> allCases()
{
    std::vector<GradCheckCase> cases;
    for (auto&& group : {matmulCases(), convCases(), poolCases(), otherCases()})
        for (const GradCheckCase& c : group)
            cases.push_back(c);
    return cases;
}

const GradCheckRegistrar registrar(allCases());

} // namespace
