// nn.WithLossCell(backbone, loss_fn): construct(data, label) = loss_fn(backbone(data), label).
// Like MindSpore it does not prefix its children's parameter names (auto_prefix=False), so a
// LeNet5 inside keeps "conv1.weight". SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class WithLossCell : public Cell {
public:
    WithLossCell(CellPtr backbone, CellPtr lossFn);
    Value construct(const std::vector<Value>& args) override;
    const CellPtr& backboneNetwork() const { return m_backbone; }

private:
    CellPtr m_backbone;
    CellPtr m_lossFn;
};

} // namespace gradstep
