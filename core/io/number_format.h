// Numbers as text: the shortest form that reads back to the same double.
// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace gradstep {

/// The shortest text that parses back to v, like Python's repr of a float ("0.5", "1e-08");
/// "nan", "inf", "-inf" for non-finite values.
std::string formatNumber(double v);

} // namespace gradstep
