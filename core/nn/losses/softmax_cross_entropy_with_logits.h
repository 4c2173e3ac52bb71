// nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none'): per sample
// -x[c] + log(sum_j exp(x[j])) for logits (N, C); labels are class indices (N,) when sparse,
// else probabilities (N, C). 'none' gives shape (N,) (SEMANTICS.md §7.1).
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/losses/loss_base.h"

namespace gradstep {

class SoftmaxCrossEntropyWithLogits : public LossBase {
public:
    explicit SoftmaxCrossEntropyWithLogits(bool sparse = false,
                                           const std::string& reduction = "none");
    /// construct(logits, labels).
    Value construct(const std::vector<Value>& args) override;
    bool sparse() const { return m_sparse; }

private:
    bool m_sparse;
};

} // namespace gradstep
