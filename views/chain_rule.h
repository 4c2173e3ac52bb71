// The chain rule a backward node applies, for teaching: the incoming gradient dL/dy (the node's
// inputs, one per forward output), the local derivative dy/dx_i of the forward op (a formula in
// words per op, and measured as dL/dx_i / dL/dy element by element where the shapes agree) and
// the outgoing gradients dL/dx_i (the node's outputs, one per forward input), with shapes and a
// few values at the same positions. Built from the Session's records; ChainRuleView shows it.
// Forward mode (a node an ops.jvp reached, forward_chain_rule.cpp) reads the other way: the
// tangents of the node's inputs dx_i flow in, the op's Jacobian acts on them (a formula per op),
// and the output's tangent dy = J · dx flows out, measured as dy ÷ dx where the shapes agree.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/node_record.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QLabel;

namespace gradstep::views {

struct ChainTensor {
    QString name;               ///< "dL/dy", "dL/dx0"
    bool defined = true;        ///< false: no gradient (a non-differentiable input)
    Shape shape;
    std::vector<double> values; ///< a few values (at `positions` when set)
};

struct ChainInput {
    QString name;      ///< "x0" ("x0 (param conv1.weight)")
    Shape shape;       ///< the forward input's shape
    QString local;     ///< dy/dx in words, "dL/dx = dL/dy · y"
    ChainTensor gradient;
    /// dL/dx ÷ dL/dy at `positions`, when the gradient has the incoming gradient's shape.
    std::optional<std::vector<double>> ratio;
};

/// Reverse: a backward node's gradients. Forward: a forward node's tangents (ops.jvp).
enum class ChainMode { Reverse, Forward };

struct ChainRule {
    ChainMode mode = ChainMode::Reverse;
    /// Forward mode: false when the op has no forward rule and its double vjp gave the tangent.
    bool byRule = true;
    QString op;        ///< the forward op, "Mul"
    QString node;      ///< "backward of LeNet5/conv1/Conv2D"
    std::vector<ChainTensor> incoming;
    std::vector<ChainInput> inputs;
    std::vector<std::int64_t> positions; ///< flat element indices the values are taken at
};

using SnapshotLookup = std::function<Tensor(const debug::TensorId&)>;

/// The chain rule of backward record `backward` (its forward record `forward`, may be null),
/// with snapshots from `lookup` (an undefined Tensor when none). Values are taken at the first
/// few positions where the incoming gradient is non-zero.
ChainRule chainRuleOf(const debug::NodeRecord& backward, const debug::NodeRecord* forward, const SnapshotLookup& lookup);

/// The forward-mode chain rule of forward record `forward` (which must carry tangents): incoming
/// are the tangents of its inputs dx_i, `inputs` holds one entry per output with the Jacobian's
/// action in words and dy = J · dx, values from the record's tangent snapshots (values of inputs
/// from `lookup`).
ChainRule forwardChainRuleOf(const debug::NodeRecord& forward, const SnapshotLookup& lookup);

/// How op `op` pushes tangents forward, e.g. Mul: "dy = dx0 · x1 + x0 · dx1". A generic sentence
/// for ops without a formula here (`byRule` false: the double vjp of its backward rule).
QString forwardDerivative(const QString& op, bool byRule);

/// The local derivative of input `input` of op `op` as the backward rule applies it, e.g. Mul's
/// input 0: "dL/dx0 = dL/dy · x1". A generic sentence for ops without a formula here.
QString localDerivative(const QString& op, std::size_t input, std::size_t inputs);

class ChainRuleView : public QWidget {
    Q_OBJECT
public:
    explicit ChainRuleView(QWidget* parent = nullptr);
    void setRule(std::optional<ChainRule> rule);
    const std::optional<ChainRule>& rule() const { return m_rule; }
    /// The panel's text without markup (tests).
    QString plainText() const;

private:
    QLabel* m_text = nullptr;
    std::optional<ChainRule> m_rule;
};

} // namespace gradstep::views
