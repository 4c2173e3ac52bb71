// nn.Dense. SPDX-License-Identifier: MIT
#include "nn/layers/dense.h"

#include "nn/layers/activation.h"
#include "ops/nn_ops.h"
#include "ops/shape_ops.h"

#include <cmath>

namespace gradstep {

// Note [Dense and Conv2d default init]
// MindSpore changed the defaults in 2.1 (SEMANTICS.md §7.2, §7.3): weight_init=None means
// HeUniform(negative_slope=sqrt(5)) -- U(-b, b), b = sqrt(1/3) * sqrt(3/fan_in) = 1/sqrt(fan_in)
// -- and bias_init=None means Uniform(1/sqrt(fan_in)), the bound MindSpore's source computes
// (SEMANTICS only says "Uniform"; the default Uniform scale 0.07 would not depend on the layer).
// We follow 2.1+; the 1.x defaults ('normal' weights, 'zeros' bias) are one InitSpec away.
Dense::Dense(std::int64_t inChannels, std::int64_t outChannels, const InitSpec& weightInit,
             const InitSpec& biasInit, bool hasBias, const std::string& activation)
    : Dense(inChannels, outChannels, weightInit, biasInit, hasBias, getActivation(activation))
{}

Dense::Dense(std::int64_t inChannels, std::int64_t outChannels, const InitSpec& weightInit,
             const InitSpec& biasInit, bool hasBias, CellPtr activation)
    : Cell("Dense"), m_inChannels(inChannels), m_outChannels(outChannels), m_hasBias(hasBias)
{
    if (inChannels <= 0 || outChannels <= 0)
        throw ValueError("for 'Dense', 'in_channels' and 'out_channels' must be positive, got "
                         + std::to_string(inChannels) + " and " + std::to_string(outChannels));
    const Shape weightShape{outChannels, inChannels};
    const InitSpec weightSpec =
        weightInit.isNone() ? InitSpec(HeUniform(std::sqrt(5.0))) : weightInit;
    m_weight = registerParameter("weight", Parameter(weightSpec.make(weightShape), "weight"));
    if (hasBias) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(inChannels));
        const InitSpec biasSpec = biasInit.isNone() ? InitSpec(Uniform(bound)) : biasInit;
        m_bias = registerParameter("bias", Parameter(biasSpec.make(Shape{outChannels}), "bias"));
    }
    if (activation)
        m_activation = registerChild("activation", std::move(activation));
}

Value Dense::construct(const std::vector<Value>& args)
{
    const Tensor& x = tensorArg(args, 0, 1);
    if (x.rank() < 1 || x.shape()[x.rank() - 1] != m_inChannels)
        throw ShapeError("for 'Dense', the last dimension of the input must be in_channels="
                         + std::to_string(m_inChannels) + ", got input shape "
                         + x.shape().toString());
    const bool flat = x.rank() == 2;
    Tensor h = flat ? x : reshape(x, {-1, m_inChannels});
    h = matmul(h, m_weight, false, true);
    if (m_hasBias)
        h = biasAdd(h, m_bias);
    if (m_activation)
        h = (*m_activation)(h).tensor();
    if (flat)
        return h;
    std::vector<std::int64_t> outShape(x.shape().begin(), x.shape().end() - 1);
    outShape.push_back(m_outChannels);
    return reshape(h, outShape);
}

std::string Dense::extraRepr() const
{
    std::string s = "input_channels=" + std::to_string(m_inChannels)
        + ", output_channels=" + std::to_string(m_outChannels);
    if (m_hasBias)
        s += ", has_bias=True";
    if (m_activation)
        s += ", activation=" + m_activation->toString();
    return s;
}

} // namespace gradstep
