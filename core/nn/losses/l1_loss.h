// nn.L1Loss(reduction='mean'): elementwise |x - y|, then the reduction.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/losses/loss_base.h"

namespace gradstep {

class L1Loss : public LossBase {
public:
    explicit L1Loss(const std::string& reduction = "mean") : LossBase("L1Loss", reduction) {}
    /// construct(logits, labels) with equal (or broadcastable) shapes.
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
