// The few numbers a chain-rule panel shows of a tensor, shared by its reverse-mode and forward-
// mode builders (chain_rule.cpp, forward_chain_rule.cpp). SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace gradstep::views {

/// t's values at flat `positions` (those inside it); empty for an undefined tensor.
std::vector<double> valuesAt(const Tensor& t, const std::vector<std::int64_t>& positions);
/// t's first few values.
std::vector<double> firstValues(const Tensor& t);
/// The first few positions where `incoming` is non-zero (the first ones when none is).
std::vector<std::int64_t> positionsOf(const Tensor& incoming);
/// "0.5, -1, 2" or "(no snapshot)".
QString valuesText(const std::vector<double>& values);

} // namespace gradstep::views
