// The table of forward-mode rules (Note [Forward-mode rules]). SPDX-License-Identifier: MIT
#include "ops/jvp/jvp_rules.h"

#include "ops/shape_ops.h"

#include <array>

namespace gradstep {

namespace {
struct RuleEntry {
    std::string_view op;
    JvpRule rule;
};

// Ops absent here fall back to the double vjp of the op (jvp_fallback.cpp); `gradstep ops` says
// which. Elementwise unary ops are listed one by one: their derivative formulas are in
// jvp_elementwise.cpp, and an elementwise op new to the registry must not silently take a rule.
constexpr std::array kRules{
    RuleEntry{"Add", jvpAdd},
    RuleEntry{"Sub", jvpSub},
    RuleEntry{"Mul", jvpMul},
    RuleEntry{"RealDiv", jvpRealDiv},
    RuleEntry{"Pow", jvpPow},
    RuleEntry{"Maximum", jvpExtremum},
    RuleEntry{"Minimum", jvpExtremum},
    RuleEntry{"ClipByValue", jvpClipByValue},
    RuleEntry{"Select", jvpSelect},
    RuleEntry{"Neg", jvpLinear},
    RuleEntry{"Cast", jvpLinear},
    RuleEntry{"Exp", jvpUnaryElementwise},
    RuleEntry{"Log", jvpUnaryElementwise},
    RuleEntry{"Sqrt", jvpUnaryElementwise},
    RuleEntry{"Rsqrt", jvpUnaryElementwise},
    RuleEntry{"Sin", jvpUnaryElementwise},
    RuleEntry{"Cos", jvpUnaryElementwise},
    RuleEntry{"Tanh", jvpUnaryElementwise},
    RuleEntry{"Sigmoid", jvpUnaryElementwise},
    RuleEntry{"ReLU", jvpUnaryElementwise},
    RuleEntry{"LeakyReLU", jvpUnaryElementwise},
    RuleEntry{"Square", jvpUnaryElementwise},
    RuleEntry{"Abs", jvpUnaryElementwise},
    RuleEntry{"Erf", jvpUnaryElementwise},
    RuleEntry{"Softplus", jvpUnaryElementwise},
    RuleEntry{"GeLU", jvpUnaryElementwise},
    RuleEntry{"GeLUGrad", jvpGeLUGrad},
    RuleEntry{"Sign", jvpZero},
    RuleEntry{"Round", jvpZero},
    RuleEntry{"StopGradient", jvpZero},
    RuleEntry{"Identity", jvpLinear},
    RuleEntry{"SiLU", jvpSiLU},
    RuleEntry{"ReduceSum", jvpLinear},
    RuleEntry{"ReduceMean", jvpLinear},
    RuleEntry{"ReduceMax", jvpReduceExtremum},
    RuleEntry{"ReduceMin", jvpReduceExtremum},
    RuleEntry{"Norm", jvpNorm},
    RuleEntry{"Reshape", jvpLinear},
    RuleEntry{"Flatten", jvpLinear},
    RuleEntry{"ExpandDims", jvpLinear},
    RuleEntry{"Squeeze", jvpLinear},
    RuleEntry{"BroadcastTo", jvpLinear},
    RuleEntry{"Transpose", jvpLinear},
    RuleEntry{"Concat", jvpLinear},
    RuleEntry{"Stack", jvpLinear},
    RuleEntry{"Split", jvpLinear},
    RuleEntry{"StridedSlice", jvpLinear},
    RuleEntry{"StridedSliceGrad", jvpLinear},
    RuleEntry{"Gather", jvpLinear},
    RuleEntry{"UnsortedSegmentSum", jvpLinear},
    RuleEntry{"Tile", jvpLinear},
    RuleEntry{"AvgPool", jvpLinear},
    RuleEntry{"AvgPoolGrad", jvpLinear},
    RuleEntry{"BiasAdd", jvpLinear},
    RuleEntry{"ReluGrad", jvpLinear},
    RuleEntry{"MaxPoolGrad", jvpLinear},
    RuleEntry{"MaxPoolGradGrad", jvpLinear},
    RuleEntry{"MaxPoolReluGrad", jvpLinear},
    RuleEntry{"MatMul", jvpBilinear},
    RuleEntry{"BatchMatMul", jvpBilinear},
    RuleEntry{"Conv2D", jvpBilinear},
    RuleEntry{"Conv2DBackpropInput", jvpBilinear},
    RuleEntry{"Conv2DBackpropFilter", jvpBilinear},
    RuleEntry{"MaxPool", jvpMaxPool},
    RuleEntry{"Softmax", jvpSoftmax},
    RuleEntry{"LogSoftmax", jvpLogSoftmax},
    RuleEntry{"Dropout", jvpDropout},
    RuleEntry{"SoftmaxCrossEntropyWithLogits", jvpCrossEntropy},
    RuleEntry{"SparseSoftmaxCrossEntropyWithLogits", jvpSparseCrossEntropy},
    RuleEntry{"SoftmaxGrad", jvpSoftmaxGrad},
    RuleEntry{"LogSoftmaxGrad", jvpLogSoftmaxGrad},
    RuleEntry{"SparseSoftmaxCrossEntropyWithLogitsGrad", jvpSparseCrossEntropyGrad},
};
} // namespace

Tensor JvpCall::tangentOrZeros(std::size_t i) const
{
    return has(i) ? tangents[i] : Tensor::zeros(inputs[i].shape(), inputs[i].dtype());
}

JvpRule findJvpRule(std::string_view opName)
{
    for (const RuleEntry& e : kRules)
        if (e.op == opName)
            return e.rule;
    return nullptr;
}

JvpRule findJvpRule(const OpDef& op) { return findJvpRule(op.name); }

OutputList jvpZero(const JvpCall& call)
{
    OutputList out;
    for (std::size_t i = 0; i < call.outputs.size(); ++i)
        out.push_back(Tensor());
    return out;
}

} // namespace gradstep
