// nn.BCEWithLogitsLoss(reduction='mean'): elementwise
// -(y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))), then the reduction.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/losses/loss_base.h"

namespace gradstep {

class BCEWithLogitsLoss : public LossBase {
public:
    explicit BCEWithLogitsLoss(const std::string& reduction = "mean")
        : LossBase("BCEWithLogitsLoss", reduction)
    {}
    /// construct(logits, labels) with equal (or broadcastable) shapes.
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
