// The gradient-check case table. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"

namespace gradstep::testing {

std::vector<GradCheckCase>& gradCheckCases()
{
    static std::vector<GradCheckCase> cases;
    return cases;
}

GradCheckRegistrar::GradCheckRegistrar(std::vector<GradCheckCase> cases)
{
    for (auto& c : cases)
        gradCheckCases().push_back(std::move(c));
}

Tensor sample(const Shape& shape, double low, double high, unsigned seed)
{
    Tensor t = Tensor::empty(shape, DType::Float64);
    double* p = t.data<double>();
    std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (std::int64_t i = 0; i < t.numel(); ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double u = static_cast<double>(state >> 11) * 0x1.0p-53;
        p[i] = low + (high - low) * u;
    }
    return t;
}

Tensor values(const Shape& shape, const std::vector<double>& v) { return Tensor::fromVector<double>(shape, v); }

Conv2dOptions convOptions(std::vector<std::int64_t> stride, std::string mode, std::vector<std::int64_t> padding,
                          std::vector<std::int64_t> dilation, std::int64_t group)
{
    Conv2dOptions o;
    o.stride = std::move(stride);
    o.padMode = std::move(mode);
    o.padding = std::move(padding);
    o.dilation = std::move(dilation);
    o.group = group;
    return o;
}

} // namespace gradstep::testing
