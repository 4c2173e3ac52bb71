// nn.Dropout. SPDX-License-Identifier: MIT
#include "nn/layers/dropout.h"

#include "io/number_format.h"
#include "ops/nn_ops.h"
#include "random/generator.h"

namespace gradstep {

Dropout::Dropout(double keepProb) : Cell("Dropout"), m_keepProb(keepProb)
{
    if (!(keepProb > 0.0 && keepProb <= 1.0))
        throw ValueError("for 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got "
                         + formatNumber(keepProb));
}

Value Dropout::construct(const std::vector<Value>& args)
{
    const Tensor& x = tensorArg(args, 0, 1);
    if (!training() || m_keepProb == 1.0)
        return x;
    // Each call draws its mask seed from the global generator, so set_seed makes runs repeatable.
    return dropout(x, m_keepProb, globalGenerator().next());
}

std::string Dropout::extraRepr() const { return "keep_prob=" + formatNumber(m_keepProb); }

} // namespace gradstep
