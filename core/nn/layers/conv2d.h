// nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
// dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None): NCHW cross-correlation
// with weight (out, in / group, kh, kw). MindSpore's defaults differ from PyTorch's: 'same'
// padding and no bias. SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"
#include "nn/initializer.h"
#include "nn/layers/layer_args.h"

#include <cstdint>
#include <string>

namespace gradstep {

class Conv2d : public Cell {
public:
    /// ValueError for non-positive sizes, an unknown pad_mode, non-zero padding without
    /// pad_mode 'pad', or channels not divisible by group. Default init: see Note [Dense and
    /// Conv2d default init] in dense.cpp (weight HeUniform(sqrt(5)), bias Uniform(1/sqrt(fan_in))).
    Conv2d(std::int64_t inChannels, std::int64_t outChannels, IntPair kernelSize,
           IntPair stride = 1, const std::string& padMode = "same", Padding4 padding = 0,
           IntPair dilation = 1, std::int64_t group = 1, bool hasBias = false,
           const InitSpec& weightInit = {}, const InitSpec& biasInit = {});

    Value construct(const std::vector<Value>& args) override;

    const Parameter& weight() const { return m_weight; }
    /// Undefined when has_bias is false.
    const Parameter& bias() const { return m_bias; }
    const std::string& padMode() const { return m_padMode; }

protected:
    std::string extraRepr() const override;

private:
    std::int64_t m_inChannels;
    std::int64_t m_outChannels;
    IntPair m_kernelSize;
    IntPair m_stride;
    std::string m_padMode;
    Padding4 m_padding;
    IntPair m_dilation;
    std::int64_t m_group;
    bool m_hasBias;
    Parameter m_weight;
    Parameter m_bias;
};

} // namespace gradstep
