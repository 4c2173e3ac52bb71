// nn.AvgPool2d(kernel_size=1, stride=1, pad_mode='valid'): the mean of each window of NCHW input.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"
#include "nn/layers/layer_args.h"
#include "ops/nn_ops.h"

namespace gradstep {

class AvgPool2d : public Cell {
public:
    /// ValueError for kernel or stride < 1 or a pad_mode other than 'same' / 'valid'.
    explicit AvgPool2d(IntPair kernelSize = 1, IntPair stride = 1,
                       const std::string& padMode = "valid");
    Value construct(const std::vector<Value>& args) override;
    const Pool2dOptions& options() const { return m_options; }

protected:
    std::string extraRepr() const override;

private:
    Pool2dOptions m_options;
};

} // namespace gradstep
