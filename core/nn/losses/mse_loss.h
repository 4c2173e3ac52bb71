// nn.MSELoss(reduction='mean'): elementwise (x - y)^2, then the reduction.
// SPDX-License-Identifier: MIT
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
