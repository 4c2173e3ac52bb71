// How far apart two recorded tensors are, and the summary of an initial tensor.
// SPDX-License-Identifier: MIT
#include "migrate/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gradstep::migrate {

Difference difference(std::span<const double> a, std::span<const double> b, bool transpose2d,
                      const std::vector<std::int64_t>& shapeA, double scale)
{
    Difference d;
    double magnitude = 0;
    const std::size_t rows = transpose2d && shapeA.size() == 2 ? static_cast<std::size_t>(shapeA[0]) : 0;
    const std::size_t cols = transpose2d && shapeA.size() == 2 ? static_cast<std::size_t>(shapeA[1]) : 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        // b holds a transposed: a[r][c] is b[c][r]
        const double other = rows ? b[(i % cols) * rows + i / cols] : b[i];
        const double diff = std::abs(a[i] - other);
        // NaN on one side only is as far apart as values can be; NaN on both is agreement
        if (std::isnan(diff) && !(std::isnan(a[i]) && std::isnan(other)))
            d.maxAbs = std::numeric_limits<double>::infinity();
        else if (diff > d.maxAbs)
            d.maxAbs = diff;
        magnitude = std::max(magnitude, std::abs(a[i]));
    }
    // Rounding differences scale with the values; a tensor of near-zero values (the gradient of a
    // bias before a BatchNorm, zero but for the rounding of thousands of summed terms) is measured
    // against a tenth of the model's scale of such tensors instead.
    const double denominator = std::max({magnitude, 0.1 * scale, 1e-30});
    d.relative = d.maxAbs / denominator;
    return d;
}

Distribution distributionOf(std::span<const double> values)
{
    Distribution s;
    if (values.empty())
        return s;
    s.min = s.max = values[0];
    double sum = 0;
    for (double v : values) {
        sum += v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
    }
    s.mean = sum / static_cast<double>(values.size());
    double squares = 0;
    for (double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(squares / static_cast<double>(values.size()));
    return s;
}

} // namespace gradstep::migrate
