// The forward-mode chain rule of a node an ops.jvp reached (Note [Forward-mode rules] in
// core/ops/jvp/jvp_rules.h): the tangents of its inputs, the Jacobian's action in words, and the
// output's tangent dy = J · dx with a few values. SPDX-License-Identifier: MIT
#include "views/chain_rule.h"

#include "views/chain_rule_values.h"

#include <cmath>
#include <map>

namespace gradstep::views {

namespace {

/// Forward op -> how it pushes tangents forward (dx0.. the inputs' tangents, x0.. the inputs,
/// y the output).
const std::map<QString, const char*>& forwardFormulas()
{
    static const std::map<QString, const char*> table = {
        {QStringLiteral("Add"), "dy = dx0 + dx1"},
        {QStringLiteral("Sub"), "dy = dx0 - dx1"},
        {QStringLiteral("Mul"), "dy = dx0 · x1 + x0 · dx1"},
        {QStringLiteral("RealDiv"), "dy = (dx0 - y · dx1) / x1"},
        {QStringLiteral("Pow"), "dy = x1 · x0^(x1 - 1) · dx0 + y · ln(x0) · dx1"},
        {QStringLiteral("Neg"), "dy = -dx"},
        {QStringLiteral("MatMul"), "dY = dX · W + X · dW (with the op's transposes)"},
        {QStringLiteral("BatchMatMul"), "dY = dX · W + X · dW per batch"},
        {QStringLiteral("BiasAdd"), "dy = dx + db along the channel axis"},
        {QStringLiteral("Conv2D"), "dy = conv(dx, W) + conv(x, dW)"},
        {QStringLiteral("ReLU"), "dy = dx where x > 0, else 0"},
        {QStringLiteral("LeakyReLU"), "dy = dx where x > 0, else α · dx"},
        {QStringLiteral("GeLU"), "dy = (Φ(x) + x · φ(x)) · dx"},
        {QStringLiteral("SiLU"), "dy = (s + x · s · (1 - s)) · dx, s = sigmoid(x)"},
        {QStringLiteral("Sigmoid"), "dy = y · (1 - y) · dx"},
        {QStringLiteral("Tanh"), "dy = (1 - y²) · dx"},
        {QStringLiteral("Softplus"), "dy = sigmoid(x) · dx"},
        {QStringLiteral("Exp"), "dy = y · dx"},
        {QStringLiteral("Log"), "dy = dx / x"},
        {QStringLiteral("Sqrt"), "dy = dx / (2 · y)"},
        {QStringLiteral("Rsqrt"), "dy = -y³ / 2 · dx"},
        {QStringLiteral("Square"), "dy = 2x · dx"},
        {QStringLiteral("Abs"), "dy = sign(x) · dx"},
        {QStringLiteral("Sin"), "dy = cos(x) · dx"},
        {QStringLiteral("Cos"), "dy = -sin(x) · dx"},
        {QStringLiteral("Erf"), "dy = 2/√π · exp(-x²) · dx"},
        {QStringLiteral("Maximum"), "dy = the tangent of the larger input (their mean at a tie)"},
        {QStringLiteral("Minimum"), "dy = the tangent of the smaller input (their mean at a tie)"},
        {QStringLiteral("ClipByValue"), "dy = dx inside [min, max], else the tangent of the bound"},
        {QStringLiteral("Select"), "dy = dx1 where the condition holds, else dx2"},
        {QStringLiteral("Cast"), "dy = dx cast to y's dtype"},
        {QStringLiteral("MaxPool"), "dy = dx at each window's maximum"},
        {QStringLiteral("AvgPool"), "dy = the mean of dx over each window"},
        {QStringLiteral("Reshape"), "dy = dx reshaped like y"},
        {QStringLiteral("Flatten"), "dy = dx reshaped like y"},
        {QStringLiteral("ExpandDims"), "dy = dx with the added axis"},
        {QStringLiteral("Squeeze"), "dy = dx with the axes removed"},
        {QStringLiteral("Transpose"), "dy = dx transposed like x"},
        {QStringLiteral("BroadcastTo"), "dy = dx broadcast like x"},
        {QStringLiteral("ReduceSum"), "dy = Σ dx over the reduced axes"},
        {QStringLiteral("ReduceMean"), "dy = the mean of dx over the reduced axes"},
        {QStringLiteral("ReduceMax"), "dy = dx at the maximum (the mean over ties)"},
        {QStringLiteral("ReduceMin"), "dy = dx at the minimum (the mean over ties)"},
        {QStringLiteral("Norm"), "dy = Σ x · dx / ‖x‖ (p = 2)"},
        {QStringLiteral("Softmax"), "dy = y · (dx - Σ y · dx)"},
        {QStringLiteral("LogSoftmax"), "dy = dx - Σ softmax(x) · dx"},
        {QStringLiteral("SparseSoftmaxCrossEntropyWithLogits"),
         "dloss = Σ (softmax(logits) - onehot(labels)) · dlogits per sample"},
        {QStringLiteral("SoftmaxCrossEntropyWithLogits"), "dloss = Σ (softmax(logits) - labels) · dlogits per sample"},
        {QStringLiteral("Dropout"), "dy = dx · mask / keep_prob"},
        {QStringLiteral("StopGradient"), "dy = 0 (the tangent is cut)"},
        {QStringLiteral("Identity"), "dy = dx"},
    };
    return table;
}

} // namespace

QString forwardDerivative(const QString& op, bool byRule)
{
    if (!byRule)
        return QStringLiteral("dy = J · dx, the vjp of %1's backward rule u ↦ Jᵀu taken with cotangent dx").arg(op);
    const auto& table = forwardFormulas();
    if (const auto it = table.find(op); it != table.end())
        return QString::fromUtf8(it->second);
    return QStringLiteral("dy = J · dx (%1's forward rule)").arg(op);
}

ChainRule forwardChainRuleOf(const debug::NodeRecord& forward, const SnapshotLookup& lookup)
{
    ChainRule rule;
    rule.mode = ChainMode::Forward;
    rule.byRule = forward.tangentsByRule;
    rule.op = QString::fromStdString(forward.op);
    rule.node = QString::fromStdString(forward.where());
    const auto snapshotOf = [&](const debug::TensorRecord& t) {
        if (t.snapshot.defined())
            return t.snapshot;
        return t.defined && lookup ? lookup(t.id) : Tensor();
    };
    const Tensor dy = forward.outputTangents.empty() || !forward.outputTangents[0].defined
                          ? Tensor()
                          : forward.outputTangents[0].snapshot;
    // Positions where the output's tangent is non-zero, so the ratios say something.
    rule.positions = positionsOf(dy);
    std::vector<Tensor> incoming;
    for (std::size_t i = 0; i < forward.inputTangents.size(); ++i) {
        const debug::TensorRecord& t = forward.inputTangents[i];
        const QString name = forward.inputTangents.size() == 1 ? QStringLiteral("dx") : QStringLiteral("dx%1").arg(i);
        const Shape shape = i < forward.inputs.size() ? forward.inputs[i].stats.shape : t.stats.shape;
        incoming.push_back(t.defined ? t.snapshot : Tensor());
        const bool aligned = incoming.back().defined() && dy.defined() && incoming.back().shape() == dy.shape();
        rule.incoming.push_back({name, t.defined, shape,
                                 aligned ? valuesAt(incoming.back(), rule.positions) : firstValues(incoming.back())});
    }
    for (std::size_t k = 0; k < forward.outputTangents.size(); ++k) {
        const debug::TensorRecord& t = forward.outputTangents[k];
        ChainInput out;
        out.name = forward.outputTangents.size() == 1 ? QStringLiteral("y") : QStringLiteral("y%1").arg(k);
        out.shape = k < forward.outputs.size() ? forward.outputs[k].stats.shape : t.stats.shape;
        out.local = forwardDerivative(rule.op, rule.byRule);
        const Tensor values = t.defined ? snapshotOf(t) : Tensor();
        out.gradient = {forward.outputTangents.size() == 1 ? QStringLiteral("dy") : QStringLiteral("dy%1").arg(k),
                        t.defined, t.stats.shape, {}};
        // One input with a tangent of the output's shape: dy ÷ dx is the local derivative itself.
        std::size_t withTangent = 0, which = 0;
        for (std::size_t i = 0; i < incoming.size(); ++i)
            if (forward.inputTangents[i].defined) {
                ++withTangent;
                which = i;
            }
        if (k == 0 && withTangent == 1 && values.defined() && incoming[which].defined()
            && incoming[which].shape() == values.shape()) {
            out.gradient.values = valuesAt(values, rule.positions);
            const std::vector<double> dx = valuesAt(incoming[which], rule.positions);
            std::vector<double> ratio;
            for (std::size_t p = 0; p < dx.size() && p < out.gradient.values.size(); ++p)
                ratio.push_back(dx[p] != 0.0 ? out.gradient.values[p] / dx[p] : std::nan(""));
            out.ratio = std::move(ratio);
        } else {
            out.gradient.values = k == 0 ? valuesAt(values, rule.positions) : firstValues(values);
        }
        rule.inputs.push_back(std::move(out));
    }
    return rule;
}

} // namespace gradstep::views
