// nn.L1Loss(reduction='mean'): |x - y| elementwise, then the reduction. Built from Sub and Abs as
// MindSpore's Cell is (the gradient at x = y is 0, Abs's choice). SPDX-License-Identifier: MIT
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
