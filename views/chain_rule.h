// The chain rule a backward node applies, for teaching: the incoming gradient dL/dy (the node's
// inputs, one per forward output), the local derivative dy/dx_i of the forward op (a formula in
// words per op, and measured as dL/dx_i / dL/dy element by element where the shapes agree) and
// the outgoing gradients dL/dx_i (the node's outputs, one per forward input), with shapes and a
// few values at the same positions. Built from the Session's records; ChainRuleView shows it.
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

struct ChainRule {
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
