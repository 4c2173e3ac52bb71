// Parameter: a Tensor with a name whose leaf node collects its gradient. The optimizer updates
// its storage in place, so every handle sees the new value. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace gradstep {

class Parameter : public Tensor {
public:
    Parameter() = default;
    Parameter(const Tensor& value, const std::string& name, bool requiresGrad = true);

    const std::string& name() const;
    void setName(const std::string& name);
    void setRequiresGrad(bool requiresGrad);
    /// Replaces the value in place (same storage), as Parameter.set_data does for equal shapes.
    void assign(const Tensor& value) { copyFrom(value); }
    /// Replaces the value with a copy of `value`, whose shape and dtype may differ (MindSpore's
    /// Parameter.set_data); every handle sees the new tensor. Float only, like the constructor.
    void setData(const Tensor& value);
};

using ParameterTuple = std::vector<Parameter>;

} // namespace gradstep
