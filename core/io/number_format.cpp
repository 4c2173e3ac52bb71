// Numbers as text. SPDX-License-Identifier: MIT
#include "io/number_format.h"

#include <charconv>
#include <cmath>

namespace gradstep {

std::string formatNumber(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, result.ptr);
}

} // namespace gradstep
