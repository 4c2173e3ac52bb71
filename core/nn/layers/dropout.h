// nn.Dropout(keep_prob=0.5): in training mode zeroes each element with probability 1 - keep_prob
// and scales the rest by 1 / keep_prob; in eval mode (the default, as in MindSpore) it is the
// identity and records nothing. SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class Dropout : public Cell {
public:
    /// ValueError unless 0 < keepProb <= 1.
    explicit Dropout(double keepProb = 0.5);
    Value construct(const std::vector<Value>& args) override;
    double keepProb() const { return m_keepProb; }

protected:
    std::string extraRepr() const override;

private:
    double m_keepProb;
};

} // namespace gradstep
