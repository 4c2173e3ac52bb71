// nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
// activation=None): activation(x @ W^T + b) with W of shape (out, in), b of shape (out,).
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"
#include "nn/initializer.h"

#include <cstdint>
#include <string>

namespace gradstep {

class Dense : public Cell {
public:
    /// Defaults follow MindSpore 2.1+: weight HeUniform(sqrt(5)), bias Uniform(1 / sqrt(in));
    /// see Note [Dense and Conv2d default init] in dense.cpp. activation: a get_activation name
    /// ("relu") or empty for none.
    Dense(std::int64_t inChannels, std::int64_t outChannels, const InitSpec& weightInit = {},
          const InitSpec& biasInit = {}, bool hasBias = true, const std::string& activation = "");
    /// The same with an activation Cell instead of a name.
    Dense(std::int64_t inChannels, std::int64_t outChannels, const InitSpec& weightInit,
          const InitSpec& biasInit, bool hasBias, CellPtr activation);

    /// Input (..., in) -> (..., out); other ranks than 2 are flattened to (-1, in) and back.
    Value construct(const std::vector<Value>& args) override;

    std::int64_t inChannels() const { return m_inChannels; }
    std::int64_t outChannels() const { return m_outChannels; }
    bool hasBias() const { return m_hasBias; }
    const Parameter& weight() const { return m_weight; }
    /// Undefined when hasBias() is false.
    const Parameter& bias() const { return m_bias; }

protected:
    std::string extraRepr() const override;

private:
    std::int64_t m_inChannels;
    std::int64_t m_outChannels;
    bool m_hasBias;
    Parameter m_weight;
    Parameter m_bias;
    CellPtr m_activation;
};

} // namespace gradstep
