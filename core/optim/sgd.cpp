// nn.SGD. SPDX-License-Identifier: MIT
#include "optim/sgd.h"

#include "autodiff/context.h"
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
    m_accum = zerosLikeParameters("accum");
    if (momentum > 0.0)
        for (const Parameter& p : parameters())
            m_stat.push_back(
                Parameter(Tensor::full(p.shape(), 1.0, p.dtype()), "stat." + p.name(), false));
}

void SGD::update(std::size_t index, const Tensor& grad)
{
    Parameter p = parameters()[index];
    const Tensor g = decayedGradient(index, grad);
    Tensor step = g;
    if (m_momentum > 0.0) {
        Tensor& v = m_accum[index];
        // MindSpore's kernel keeps a per-element "first step" flag (stat, ones until the first
        // update); all elements flip together. A compiled update reads it; PyNative knows the step.
        const Tensor& stat = m_stat[index];
        const auto later = [&] {
            return add(mul(v, scalar(m_momentum, v)), mul(g, scalar(1.0 - m_dampening, g)));
        };
        if (tracingOps()) {
            writeState(v, select(cast(stat, DType::Bool), g, later()));
            writeState(stat, Tensor::zeros(stat.shape(), stat.dtype()));
        } else {
            writeState(v, globalStep() == 0 ? g : later());
            if (globalStep() == 0)
                writeState(stat, Tensor::zeros(stat.shape(), stat.dtype()));
        }
        step = m_nesterov ? add(g, mul(v, scalar(m_momentum, v))) : v;
    }
    // One in-place pass instead of mul, sub and a copy; the same rounding (apply_gradient_descent.cpp).
    // Compiled, the pass is those ops and a write of the result.
    if (tracingOps())
        writeState(p, sub(p, mul(scalar(learningRate(), p), step)));
    else
        applyGradientDescent(p, scalar(learningRate(), p), step);
}

} // namespace gradstep
