// nn.BCEWithLogitsLoss(reduction='mean'): elementwise
// -(y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))), then the reduction.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/losses/loss_base.h"

namespace gradstep {

class BCEWithLogitsLoss : public LossBase {
public:
    /// weight, posWeight: undefined for none; each broadcasts to the logits.
    explicit BCEWithLogitsLoss(const std::string& reduction = "mean", Tensor weight = {}, Tensor posWeight = {})
        : LossBase("BCEWithLogitsLoss", reduction), m_weight(std::move(weight)), m_posWeight(std::move(posWeight))
    {}
    /// construct(logits, labels) with equal (or broadcastable) shapes.
    Value construct(const std::vector<Value>& args) override;

private:
    Tensor m_weight;
    Tensor m_posWeight;
};

} // namespace gradstep
