// Helpers for the optimizer tests: float64 parameters and constant gradient sequences.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/parameter.h"

#include <string>
#include <vector>

namespace gradstep::testing {

inline Parameter param64(const std::vector<double>& values, const std::string& name = "w")
{
    return Parameter(Tensor::fromVector<double>({static_cast<std::int64_t>(values.size())}, values),
                     name);
}

inline Tensor grad64(const std::vector<double>& values)
{
    return Tensor::fromVector<double>({static_cast<std::int64_t>(values.size())}, values);
}

} // namespace gradstep::testing
