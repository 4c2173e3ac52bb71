// nn.Adam. SPDX-License-Identifier: MIT
#include "optim/adam.h"

#include "ops/elementwise.h"

#include <cmath>

namespace gradstep {

Adam::Adam(ParameterTuple params, double learningRate, double beta1, double beta2, double eps,
           double weightDecay, bool useNesterov)
    : Optimizer("Adam", std::move(params), learningRate, weightDecay), m_beta1(beta1),
      m_beta2(beta2), m_eps(eps), m_useNesterov(useNesterov)
{
    if (!(beta1 > 0.0 && beta1 < 1.0))
        throwArgument("beta1", "in range (0.0, 1.0)", beta1);
    if (!(beta2 > 0.0 && beta2 < 1.0))
        throwArgument("beta2", "in range (0.0, 1.0)", beta2);
    if (!(eps > 0.0) || std::isinf(eps))
        throwArgument("eps", "a finite number > 0.0", eps);
    m_moment1 = zerosLikeParameters();
    m_moment2 = zerosLikeParameters();
}

void Adam::beginStep()
{
    m_beta1Power *= m_beta1;
    m_beta2Power *= m_beta2;
}

void Adam::update(std::size_t index, const Tensor& grad)
{
    Parameter p = parameters()[index];
    const Tensor g = decayedGradient(index, grad);
    Tensor& m = m_moment1[index];
    Tensor& v = m_moment2[index];
    m.copyFrom(add(m, mul(sub(g, m), scalar(1.0 - m_beta1, g))));
    v.copyFrom(add(v, mul(sub(mul(g, g), v), scalar(1.0 - m_beta2, g))));
    const double stepSize = learningRate() * std::sqrt(1.0 - m_beta2Power) / (1.0 - m_beta1Power);
    const Tensor direction =
        m_useNesterov ? add(mul(m, scalar(m_beta1, m)), mul(g, scalar(1.0 - m_beta1, g))) : m;
    const Tensor denominator = add(sqrt(v), scalar(m_eps, v));
    p.assign(sub(p, div(mul(scalar(stepSize, p), direction), denominator)));
}

} // namespace gradstep
