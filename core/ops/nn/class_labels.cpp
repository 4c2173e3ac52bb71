// Class-index labels (see class_labels.h). SPDX-License-Identifier: MIT
#include "ops/nn/class_labels.h"

#include "ops/dispatch.h"

#include <string>

namespace gradstep {

std::vector<std::int64_t> readClassLabels(const OpCall& call)
{
    const Tensor& labels = call.input(1);
    const std::int64_t classes = call.input(0).shape()[1];
    std::vector<std::int64_t> values(static_cast<std::size_t>(labels.numel()));
    for (std::size_t n = 0; n < values.size(); ++n) {
        const auto i = static_cast<std::int64_t>(n);
        values[n] = labels.dtype() == DType::Int32 ? labels.data<std::int32_t>()[i] : labels.data<std::int64_t>()[i];
        if (values[n] < 0 || values[n] >= classes)
            throw IndexError("for '" + std::string(call.op.name) + "', label " + std::to_string(values[n])
                             + " of sample " + std::to_string(n) + " is out of range [0, " + std::to_string(classes)
                             + ") (" + call.describe() + ")");
    }
    return values;
}

} // namespace gradstep
