// nn.Conv2d. SPDX-License-Identifier: MIT
#include "nn/layers/conv2d.h"

#include "ops/nn_ops.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gradstep {

namespace {

void checkPositive(const char* what, const IntPair& v)
{
    if (v.first < 1 || v.second < 1)
        throw ValueError(std::string("for 'Conv2d', '") + what + "' must be positive, got "
                         + v.toString());
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

Conv2d::Conv2d(std::int64_t inChannels, std::int64_t outChannels, IntPair kernelSize,
               IntPair stride, const std::string& padMode, Padding4 padding, IntPair dilation,
               std::int64_t group, bool hasBias, const InitSpec& weightInit,
               const InitSpec& biasInit)
    : Cell("Conv2d"), m_inChannels(inChannels), m_outChannels(outChannels),
      m_kernelSize(kernelSize), m_stride(stride), m_padMode(lower(padMode)),
      m_padding(std::move(padding)), m_dilation(dilation), m_group(group), m_hasBias(hasBias)
{
    if (inChannels <= 0 || outChannels <= 0 || group <= 0)
        throw ValueError(
            "for 'Conv2d', 'in_channels', 'out_channels' and 'group' must be positive, got "
            + std::to_string(inChannels) + ", " + std::to_string(outChannels) + " and "
            + std::to_string(group));
    if (inChannels % group != 0 || outChannels % group != 0)
        throw ValueError(
            "for 'Conv2d', 'in_channels' and 'out_channels' must be divisible by 'group', got "
            + std::to_string(inChannels) + ", " + std::to_string(outChannels) + " and group "
            + std::to_string(group));
    checkPositive("kernel_size", kernelSize);
    checkPositive("stride", stride);
    checkPositive("dilation", dilation);
    if (m_padMode != "same" && m_padMode != "valid" && m_padMode != "pad")
        throw ValueError("for 'Conv2d', 'pad_mode' must be one of 'same', 'valid', 'pad', got '"
                         + padMode + "'");
    for (std::int64_t p : m_padding.values)
        if (p < 0)
            throw ValueError("for 'Conv2d', 'padding' must be >= 0, got " + std::to_string(p));
    if (m_padMode != "pad" && !m_padding.isZero())
        throw ValueError(
            "for 'Conv2d', the 'padding' must be zero when 'pad_mode' is not 'pad', got pad_mode '"
            + m_padMode + "'");
    const Shape weightShape{outChannels, inChannels / group, kernelSize.first, kernelSize.second};
    const InitSpec weightSpec =
        weightInit.isNone() ? InitSpec(HeUniform(std::sqrt(5.0))) : weightInit;
    m_weight = registerParameter("weight", Parameter(weightSpec.make(weightShape), "weight"));
    if (hasBias) {
        const double bound = 1.0 / std::sqrt(computeFans(weightShape).fanIn);
        const InitSpec biasSpec = biasInit.isNone() ? InitSpec(Uniform(bound)) : biasInit;
        m_bias = registerParameter("bias", Parameter(biasSpec.make(Shape{outChannels}), "bias"));
    }
}

Value Conv2d::construct(const std::vector<Value>& args)
{
    Conv2dOptions options;
    options.stride = m_stride.toVector();
    options.padMode = m_padMode;
    options.padding = m_padding.values;
    options.dilation = m_dilation.toVector();
    options.group = m_group;
    Tensor y = conv2d(tensorArg(args, 0, 1), m_weight, options);
    return m_hasBias ? biasAdd(y, m_bias) : y;
}

std::string Conv2d::extraRepr() const
{
    const auto& p = m_padding.values;
    return "input_channels=" + std::to_string(m_inChannels) + ", output_channels="
        + std::to_string(m_outChannels) + ", kernel_size=" + m_kernelSize.toString()
        + ", stride=" + m_stride.toString() + ", pad_mode=" + m_padMode + ", padding=("
        + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ", "
        + std::to_string(p[3]) + "), dilation=" + m_dilation.toString()
        + ", group=" + std::to_string(m_group) + ", has_bias=" + (m_hasBias ? "True" : "False");
}

} // namespace gradstep
