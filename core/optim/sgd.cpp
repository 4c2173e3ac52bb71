// nn.SGD. SPDX-License-Identifier: MIT
#include "optim/sgd.h"

#include "io/number_format.h"
#include "ops/elementwise.h"
#include "ops/nn_ops.h"

#include <cmath>

namespace gradstep {

SGD::SGD(ParameterTuple params, double learningRate, double momentum, double dampening,
         double weightDecay, bool nesterov)
    : Optimizer("SGD", std::move(params), learningRate, weightDecay), m_momentum(momentum),
      m_dampening(dampening), m_nesterov(nesterov)
{
    if (!(momentum >= 0.0) || std::isinf(momentum))
        throwArgument("momentum", "at least 0.0", momentum);
    if (!(dampening >= 0.0) || std::isinf(dampening))
        throwArgument("dampening", "at least 0.0", dampening);
    if (nesterov && !(momentum > 0.0 && dampening == 0.0))
        throw ValueError(
            "for 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
            "to 0.0, but got 'momentum' "
            + formatNumber(momentum) + ", 'dampening' " + formatNumber(dampening));
    m_accum = zerosLikeParameters();
}

void SGD::update(std::size_t index, const Tensor& grad)
{
    Parameter p = parameters()[index];
    const Tensor g = decayedGradient(index, grad);
    Tensor step = g;
    if (m_momentum > 0.0) {
        Tensor& v = m_accum[index];
        // MindSpore's kernel keeps a per-element "first step" flag; all elements flip together.
        const Tensor next = globalStep() == 0
            ? g
            : add(mul(v, scalar(m_momentum, v)), mul(g, scalar(1.0 - m_dampening, g)));
        v.copyFrom(next);
        step = m_nesterov ? add(g, mul(v, scalar(m_momentum, v))) : v;
    }
    // One in-place pass instead of mul, sub and a copy; the same rounding (apply_gradient_descent.cpp).
    applyGradientDescent(p, scalar(learningRate(), p), step);
}

} // namespace gradstep
