// nn.Momentum. SPDX-License-Identifier: MIT
#include "optim/momentum.h"

#include "autodiff/context.h"
#include "ops/elementwise.h"

#include <cmath>

namespace gradstep {

Momentum::Momentum(ParameterTuple params, double learningRate, double momentum, double weightDecay,
                   bool useNesterov)
    : Optimizer("Momentum", std::move(params), learningRate, weightDecay), m_momentum(momentum),
      m_useNesterov(useNesterov)
{
    if (!(momentum >= 0.0) || std::isinf(momentum))
        throwArgument("momentum", "at least 0.0", momentum);
    m_moments = zerosLikeParameters("moments");
}

void Momentum::update(std::size_t index, const Tensor& grad)
{
    Parameter p = parameters()[index];
    const Tensor g = decayedGradient(index, grad);
    Tensor& v = m_moments[index];
    const Tensor lr = scalar(learningRate(), p);
    const Tensor u = scalar(m_momentum, p);
    writeState(v, add(mul(v, u), g));
    writeState(p, m_useNesterov ? sub(p, add(mul(g, lr), mul(mul(v, u), lr))) : sub(p, mul(lr, v)));
}

} // namespace gradstep
