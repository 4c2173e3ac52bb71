// nn.WithLossCell. SPDX-License-Identifier: MIT
#include "nn/wrappers/with_loss_cell.h"

namespace gradstep {

WithLossCell::WithLossCell(CellPtr backbone, CellPtr lossFn) : Cell("WithLossCell", false)
{
    m_backbone = registerChild("_backbone", std::move(backbone));
    m_lossFn = registerChild("_loss_fn", std::move(lossFn));
}

Value WithLossCell::construct(const std::vector<Value>& args)
{
    const Tensor& data = tensorArg(args, 0, 2);
    const Tensor& label = tensorArg(args, 1, 2);
    Value out = (*m_backbone)(data);
    return (*m_lossFn)(std::vector<Value>{out, label});
}

} // namespace gradstep
