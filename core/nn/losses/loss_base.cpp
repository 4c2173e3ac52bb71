// LossBase. SPDX-License-Identifier: MIT
#include "nn/losses/loss_base.h"

#include "ops/reduction.h"

namespace gradstep {

LossBase::LossBase(std::string className, std::string reduction)
    : Cell(std::move(className)), m_reduction(std::move(reduction))
{
    if (m_reduction != "mean" && m_reduction != "sum" && m_reduction != "none")
        throw ValueError("for '" + this->className()
                         + "', the 'reduction' must be in ['mean', 'sum', 'none'], "
                           "but got "
                         + m_reduction);
}

Tensor LossBase::getLoss(const Tensor& x) const
{
    if (m_reduction == "mean")
        return reduceMean(x);
    if (m_reduction == "sum")
        return reduceSum(x);
    return x;
}

} // namespace gradstep
