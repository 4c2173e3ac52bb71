// SPDX-License-Identifier: MIT
#include "views/chain_rule.h"

#include "views/chain_rule_values.h"
#include "views/gradients_table.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

namespace gradstep::views {

namespace {

/// Forward op -> the local derivative per input ("%g" the incoming gradient dL/dy, x0.. inputs,
/// y the output). One entry: every input alike.
const std::map<QString, std::vector<const char*>>& formulas()
{
    static const std::map<QString, std::vector<const char*>> table = {
        {QStringLiteral("Add"), {"dL/dx0 = dL/dy (summed over broadcast axes)", "dL/dx1 = dL/dy (summed over broadcast axes)"}},
        {QStringLiteral("Sub"), {"dL/dx0 = dL/dy", "dL/dx1 = -dL/dy (summed over broadcast axes)"}},
        {QStringLiteral("Mul"), {"dL/dx0 = dL/dy · x1", "dL/dx1 = dL/dy · x0"}},
        {QStringLiteral("RealDiv"), {"dL/dx0 = dL/dy / x1", "dL/dx1 = -dL/dy · x0 / x1²"}},
        {QStringLiteral("MatMul"), {"dL/dX = dL/dY · Wᵀ", "dL/dW = Xᵀ · dL/dY"}},
        {QStringLiteral("BatchMatMul"), {"dL/dX = dL/dY · Wᵀ per batch", "dL/dW = Xᵀ · dL/dY per batch"}},
        {QStringLiteral("BiasAdd"), {"dL/dx = dL/dy", "dL/db = dL/dy summed over every axis but the channel"}},
        {QStringLiteral("Conv2D"), {"dL/dx = dL/dy convolved back with the flipped kernel (Conv2DBackpropInput)",
                                    "dL/dW = x correlated with dL/dy (Conv2DBackpropFilter)"}},
        {QStringLiteral("Conv2DWithCols"),
         {"dL/dx = dL/dy convolved back with the flipped kernel (Conv2DBackpropInput)",
          "dL/dW = the saved col matrices times dL/dy (Conv2DBackpropFilterFromCols)"}},
        {QStringLiteral("ReLU"), {"dL/dx = dL/dy where x > 0, else 0"}},
        {QStringLiteral("LeakyReLU"), {"dL/dx = dL/dy where x > 0, else α · dL/dy"}},
        {QStringLiteral("GeLU"), {"dL/dx = dL/dy · (Φ(x) + x · φ(x))"}},
        {QStringLiteral("Sigmoid"), {"dL/dx = dL/dy · y · (1 - y)"}},
        {QStringLiteral("Tanh"), {"dL/dx = dL/dy · (1 - y²)"}},
        {QStringLiteral("Softplus"), {"dL/dx = dL/dy · sigmoid(x)"}},
        {QStringLiteral("Exp"), {"dL/dx = dL/dy · y"}},
        {QStringLiteral("Log"), {"dL/dx = dL/dy / x"}},
        {QStringLiteral("Sqrt"), {"dL/dx = dL/dy / (2 · y)"}},
        {QStringLiteral("Rsqrt"), {"dL/dx = -dL/dy · y³ / 2"}},
        {QStringLiteral("Square"), {"dL/dx = dL/dy · 2x"}},
        {QStringLiteral("Neg"), {"dL/dx = -dL/dy"}},
        {QStringLiteral("Abs"), {"dL/dx = dL/dy · sign(x)"}},
        {QStringLiteral("Sin"), {"dL/dx = dL/dy · cos(x)"}},
        {QStringLiteral("Cos"), {"dL/dx = -dL/dy · sin(x)"}},
        {QStringLiteral("Erf"), {"dL/dx = dL/dy · 2/√π · exp(-x²)"}},
        {QStringLiteral("Pow"), {"dL/dx0 = dL/dy · x1 · x0^(x1 - 1)", "dL/dx1 = dL/dy · y · ln(x0)"}},
        {QStringLiteral("Maximum"), {"dL/dx0 = dL/dy where x0 ≥ x1, else 0", "dL/dx1 = dL/dy where x1 > x0, else 0"}},
        {QStringLiteral("Minimum"), {"dL/dx0 = dL/dy where x0 ≤ x1, else 0", "dL/dx1 = dL/dy where x1 < x0, else 0"}},
        {QStringLiteral("MaxPool"), {"dL/dx = dL/dy routed to the maximum of each window, 0 elsewhere"}},
        {QStringLiteral("AvgPool"), {"dL/dx = dL/dy spread evenly over each window"}},
        {QStringLiteral("Reshape"), {"dL/dx = dL/dy reshaped to x's shape"}},
        {QStringLiteral("Flatten"), {"dL/dx = dL/dy reshaped to x's shape"}},
        {QStringLiteral("ExpandDims"), {"dL/dx = dL/dy with the added axis removed"}},
        {QStringLiteral("Squeeze"), {"dL/dx = dL/dy with the removed axes restored"}},
        {QStringLiteral("Transpose"), {"dL/dx = dL/dy transposed back"}},
        {QStringLiteral("Identity"), {"dL/dx = dL/dy"}},
        {QStringLiteral("Cast"), {"dL/dx = dL/dy cast back to x's dtype"}},
        {QStringLiteral("BroadcastTo"), {"dL/dx = dL/dy summed over the broadcast axes"}},
        {QStringLiteral("Tile"), {"dL/dx = dL/dy summed over the tiles"}},
        {QStringLiteral("ReduceSum"), {"dL/dx = dL/dy broadcast back over the reduced axes"}},
        {QStringLiteral("ReduceMean"), {"dL/dx = dL/dy broadcast back, divided by the count"}},
        {QStringLiteral("ReduceMax"), {"dL/dx = dL/dy at the maxima, 0 elsewhere"}},
        {QStringLiteral("ReduceMin"), {"dL/dx = dL/dy at the minima, 0 elsewhere"}},
        {QStringLiteral("Softmax"), {"dL/dx = y · (dL/dy - Σ dL/dy · y)"}},
        {QStringLiteral("LogSoftmax"), {"dL/dx = dL/dy - softmax(x) · Σ dL/dy"}},
        {QStringLiteral("SparseSoftmaxCrossEntropyWithLogits"),
         {"dL/dlogits = dL/dy · (softmax(logits) - onehot(labels)) / batch", "labels: no gradient"}},
        {QStringLiteral("SoftmaxCrossEntropyWithLogits"), {"dL/dlogits = dL/dy · (softmax(logits) - labels)",
                                                           "dL/dlabels = -dL/dy · log softmax(logits)"}},
        {QStringLiteral("MSELoss"), {"dL/dx0 = dL/dy · 2 (x0 - x1) / n", "dL/dx1 = -dL/dy · 2 (x0 - x1) / n"}},
        {QStringLiteral("L1Loss"), {"dL/dx0 = dL/dy · sign(x0 - x1) / n", "dL/dx1 = -dL/dy · sign(x0 - x1) / n"}},
        {QStringLiteral("Dropout"), {"dL/dx = dL/dy · mask / keep_prob"}},
        {QStringLiteral("Gather"), {"dL/dx = dL/dy added into the gathered rows (scatter-add)", "indices: no gradient"}},
        {QStringLiteral("StridedSlice"), {"dL/dx = dL/dy placed into the slice, 0 elsewhere"}},
        {QStringLiteral("Concat"), {"dL/dx_i = the part of dL/dy that x_i filled"}},
        {QStringLiteral("Split"), {"dL/dx = the outputs' gradients concatenated"}},
        {QStringLiteral("Stack"), {"dL/dx_i = dL/dy at index i of the stacked axis"}},
        {QStringLiteral("Select"), {"condition: no gradient", "dL/dx1 = dL/dy where the condition holds, else 0",
                                    "dL/dx2 = dL/dy where it does not, else 0"}},
        {QStringLiteral("ClipByValue"), {"dL/dx = dL/dy inside [min, max], else 0"}},
        {QStringLiteral("Norm"), {"dL/dx = dL/dy · x / ‖x‖"}},
    };
    return table;
}

/// MatMul's and BatchMatMul's rule depends on which operand is transposed (the op's attrs,
/// "{transpose_a=false, transpose_b=true}").
QString matmulDerivative(const QString& attrs, std::size_t input)
{
    const bool ta = attrs.contains(QStringLiteral("transpose_a=true"), Qt::CaseInsensitive);
    const bool tb = attrs.contains(QStringLiteral("transpose_b=true"), Qt::CaseInsensitive);
    static const char* const rules[4][2] = {
        {"dL/dX = dL/dY · Wᵀ", "dL/dW = Xᵀ · dL/dY"},             // Y = X · W
        {"dL/dX = dL/dY · W", "dL/dW = dL/dYᵀ · X"},              // Y = X · Wᵀ
        {"dL/dX = W · dL/dYᵀ", "dL/dW = X · dL/dY"},              // Y = Xᵀ · W
        {"dL/dX = Wᵀ · dL/dYᵀ", "dL/dW = dL/dYᵀ · Xᵀ"},           // Y = Xᵀ · Wᵀ
    };
    const char* const forms[4] = {"Y = X · W", "Y = X · Wᵀ", "Y = Xᵀ · W", "Y = Xᵀ · Wᵀ"};
    const int which = (ta ? 2 : 0) + (tb ? 1 : 0);
    return QStringLiteral("%1 (%2)").arg(QString::fromUtf8(rules[which][input == 0 ? 0 : 1]),
                                         QString::fromUtf8(forms[which]));
}

QString inputName(const debug::NodeRecord* forward, std::size_t i)
{
    QString name = QStringLiteral("x%1").arg(i);
    if (forward && i < forward->inputs.size()) {
        const debug::TensorRecord& in = forward->inputs[i];
        if (in.id.kind == debug::TensorId::Kind::Parameter)
            name += QStringLiteral(" (%1)").arg(QString::fromStdString(in.id.name));
    }
    return name;
}

} // namespace

QString localDerivative(const QString& op, std::size_t input, std::size_t inputs)
{
    const auto& table = formulas();
    if (const auto it = table.find(op); it != table.end() && !it->second.empty()) {
        if (it->second.size() == 1 && inputs > 1)
            return QString::fromUtf8(it->second.front()).replace(QStringLiteral("dL/dx"), QStringLiteral("dL/dx%1").arg(input));
        if (input < it->second.size())
            return QString::fromUtf8(it->second[input]);
    }
    return QStringLiteral("dL/dx%1 = dL/dy · ∂y/∂x%1 (%2's backward rule)").arg(input).arg(op);
}

namespace {

/// The gradient of forward input `i` (backward output `i`), measured against the single
/// incoming gradient `dy` when the shapes agree.
void addInput(ChainRule& rule, const debug::NodeRecord& backward, const debug::NodeRecord* forward, std::size_t i,
              const Tensor& grad, const Tensor& dy)
{
    const debug::TensorRecord& out = backward.outputs[i];
    ChainInput input;
    input.name = inputName(forward, i);
    input.shape = forward && i < forward->inputs.size() ? forward->inputs[i].stats.shape : out.stats.shape;
    const bool matmul = rule.op == QStringLiteral("MatMul") || rule.op == QStringLiteral("BatchMatMul");
    input.local = matmul && i < 2 ? matmulDerivative(QString::fromStdString(forward ? forward->attrs : backward.attrs), i)
                                  : localDerivative(rule.op, i, backward.outputs.size());
    input.gradient = {QStringLiteral("dL/dx%1").arg(i), out.defined, out.stats.shape, {}};
    if (grad.defined() && dy.defined() && grad.shape() == dy.shape()) {
        input.gradient.values = valuesAt(grad, rule.positions);
        std::vector<double> ratio;
        const std::vector<double>& incoming = rule.incoming.front().values;
        for (std::size_t k = 0; k < incoming.size() && k < input.gradient.values.size(); ++k)
            ratio.push_back(incoming[k] != 0.0 ? input.gradient.values[k] / incoming[k] : std::nan(""));
        input.ratio = std::move(ratio);
    } else {
        input.gradient.values = firstValues(grad);
    }
    rule.inputs.push_back(std::move(input));
}

} // namespace

ChainRule chainRuleOf(const debug::NodeRecord& backward, const debug::NodeRecord* forward, const SnapshotLookup& lookup)
{
    ChainRule rule;
    rule.op = QString::fromStdString(backward.op);
    rule.node = QString::fromStdString(backward.where());
    const auto snapshotOf = [&](const debug::TensorRecord& t) {
        if (t.snapshot.defined())
            return t.snapshot;
        return t.defined && lookup ? lookup(t.id) : Tensor();
    };
    std::vector<Tensor> incoming;
    for (std::size_t i = 0; i < backward.inputs.size(); ++i) {
        const debug::TensorRecord& in = backward.inputs[i];
        incoming.push_back(snapshotOf(in));
        const QString name = backward.inputs.size() == 1 ? QStringLiteral("dL/dy") : QStringLiteral("dL/dy%1").arg(i);
        rule.incoming.push_back({name, in.defined, in.stats.shape, {}});
    }
    // Values at positions where the (single) incoming gradient is non-zero, so a ratio says
    // something; several outputs: the first values of each.
    const bool one = incoming.size() == 1;
    if (one)
        rule.positions = positionsOf(incoming.front());
    for (std::size_t i = 0; i < incoming.size(); ++i)
        rule.incoming[i].values = one ? valuesAt(incoming[i], rule.positions) : firstValues(incoming[i]);
    for (std::size_t i = 0; i < backward.outputs.size(); ++i) {
        const debug::TensorRecord& out = backward.outputs[i];
        addInput(rule, backward, forward, i, out.defined ? snapshotOf(out) : Tensor(), one ? incoming.front() : Tensor());
    }
    return rule;
}

ChainRuleView::ChainRuleView(QWidget* parent) : QWidget(parent)
{
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    setRule(std::nullopt);
}

namespace {

QString ruleHtml(const ChainRule& r)
{
    const auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    QStringList at;
    for (std::int64_t i : r.positions)
        at << QString::number(i);
    const QString where = at.isEmpty() ? QString() : QObject::tr(" at elements %1").arg(at.join(QStringLiteral(", ")));
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    const bool forward = r.mode == ChainMode::Forward;
    if (forward)
        html += QStringLiteral("<tr><td colspan='2'><i>%1</i></td></tr>")
                    .arg(esc(r.byRule ? QObject::tr("forward mode (jvp): dy = J · dx, by %1's forward rule").arg(r.op)
                                      : QObject::tr("forward mode (jvp): dy = J · dx; %1 has no forward rule, so "
                                                    "J · dx comes from the double vjp of its backward rule")
                                            .arg(r.op)));
    const auto row = [&](const QString& label, const QString& what, const QString& value, const char* colour) {
        html += QStringLiteral("<tr><td style='color:%1'><b>%2</b>&nbsp;</td><td>%3</td></tr>")
                    .arg(QLatin1String(colour), esc(label), what);
        if (!value.isEmpty())
            html += QStringLiteral("<tr><td></td><td><span style='color:gray'>%1</span></td></tr>").arg(value);
    };
    const auto shape = [&](const Shape& s) { return esc(QString::fromStdString(s.toString())); };
    for (const ChainTensor& in : r.incoming)
        row(QObject::tr("in"), esc(in.name) + QLatin1Char(' ') + shape(in.shape), esc(valuesText(in.values) + where),
            "#e0701b");
    for (const ChainInput& input : r.inputs) {
        row(QObject::tr("local"), QStringLiteral("%1 %2: %3").arg(esc(input.name), shape(input.shape), esc(input.local)),
            QString(), "#1e6fd9");
        if (!input.gradient.defined) {
            row(QObject::tr("out"),
                forward ? QObject::tr("%1: zero (no tangent)").arg(esc(input.gradient.name))
                        : QObject::tr("%1: none (not differentiable)").arg(esc(input.gradient.name)),
                QString(), "#2e9d48");
            continue;
        }
        row(QObject::tr("out"), esc(input.gradient.name) + QLatin1Char(' ') + shape(input.gradient.shape),
            esc(valuesText(input.gradient.values)), "#2e9d48");
        if (input.ratio)
            row(QString(),
                (forward ? QObject::tr("measured dy ÷ dx: %1") : QObject::tr("measured dL/dx ÷ dL/dy: %1"))
                    .arg(esc(valuesText(*input.ratio))),
                QString(), "#1e6fd9");
    }
    return html + QStringLiteral("</table>");
}

} // namespace

void ChainRuleView::setRule(std::optional<ChainRule> rule)
{
    m_rule = std::move(rule);
    if (!m_rule)
        m_text->setText(tr("<i>Shown at backward nodes: how the incoming gradient becomes the gradients of the "
                           "forward op's inputs; and at forward nodes an ops.jvp reached: how the tangents of "
                           "the inputs become the output's.</i>"));
    else
        m_text->setText(ruleHtml(*m_rule));
}

QString ChainRuleView::plainText() const
{
    QTextDocument doc;
    doc.setHtml(m_text->text());
    return doc.toPlainText();
}

} // namespace gradstep::views
