// nn.MSELoss(reduction='mean'): (x - y)^2 elementwise, then the reduction. Built from Sub and
// Square as MindSpore's Cell is, so its graph shows the same nodes. SPDX-License-Identifier: MIT
#pragma once

#include "nn/losses/loss_base.h"

namespace gradstep {

class MSELoss : public LossBase {
public:
    explicit MSELoss(const std::string& reduction = "mean") : LossBase("MSELoss", reduction) {}
    /// construct(logits, labels) with equal (or broadcastable) shapes.
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
