// LossBase: what every loss Cell shares, the `reduction` argument ('mean', 'sum' or 'none').
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

#include <string>

namespace gradstep {

class LossBase : public Cell {
public:
    /// ValueError naming the Cell unless reduction is 'mean', 'sum' or 'none'.
    LossBase(std::string className, std::string reduction);
    const std::string& reduction() const { return m_reduction; }

protected:
    /// Applies the reduction to per-element (or per-sample) losses: mean or sum over every axis.
    Tensor getLoss(const Tensor& x) const;

private:
    std::string m_reduction;
};

} // namespace gradstep
