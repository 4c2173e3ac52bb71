// nn.Adam. SPDX-License-Identifier: MIT
#include "optim/adam.h"

#include "autodiff/context.h"
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
    m_moment1 = zerosLikeParameters("moment1");
    m_moment2 = zerosLikeParameters("moment2");
    m_beta1Power = Parameter(Tensor::full(Shape(), 1.0, DType::Float64), "beta1_power", false);
    m_beta2Power = Parameter(Tensor::full(Shape(), 1.0, DType::Float64), "beta2_power", false);
}

void Adam::beginStep()
{
    if (tracingOps()) { // the same double arithmetic as below, as float64 graph nodes
        const auto f64 = [](double v) { return Tensor::full(Shape(), v, DType::Float64); };
        writeState(m_beta1Power, mul(m_beta1Power, f64(m_beta1)));
        writeState(m_beta2Power, mul(m_beta2Power, f64(m_beta2)));
        m_stepSize = div(mul(f64(learningRate()), sqrt(sub(f64(1.0), m_beta2Power))),
                         sub(f64(1.0), m_beta1Power));
        return;
    }
    const double beta1Power = m_beta1Power.toDoubles().front() * m_beta1;
    const double beta2Power = m_beta2Power.toDoubles().front() * m_beta2;
    writeState(m_beta1Power, Tensor::full(Shape(), beta1Power, DType::Float64));
    writeState(m_beta2Power, Tensor::full(Shape(), beta2Power, DType::Float64));
    m_stepSize = Tensor::full(
        Shape(), learningRate() * std::sqrt(1.0 - beta2Power) / (1.0 - beta1Power), DType::Float64);
}

void Adam::update(std::size_t index, const Tensor& grad)
{
    Parameter p = parameters()[index];
    const Tensor g = decayedGradient(index, grad);
    const Tensor& m = m_moment1[index];
    const Tensor& v = m_moment2[index];
    writeState(m, add(m, mul(sub(g, m), scalar(1.0 - m_beta1, g))));
    writeState(v, add(v, mul(sub(mul(g, g), v), scalar(1.0 - m_beta2, g))));
    const Tensor stepSize = tracingOps() ? cast(m_stepSize, p.dtype())
                                         : scalar(m_stepSize.toDoubles().front(), p);
    const Tensor direction =
        m_useNesterov ? add(mul(m, scalar(m_beta1, m)), mul(g, scalar(1.0 - m_beta1, g))) : m;
    const Tensor denominator = add(sqrt(v), scalar(m_eps, v));
    writeState(p, sub(p, div(mul(stepSize, direction), denominator)));
}

} // namespace gradstep
