// Helpers of the fused-kernel tests: random inputs and the distance to a float64 reference.
// SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

#include <algorithm>
#include <cmath>

namespace gradstep::testing {

/// max_i |a_i - b_i| over the elements (compared in float64); +inf on a shape mismatch or a NaN.
inline double maxDiff(const Tensor& a, const Tensor& b)
{
    if (!(a.shape() == b.shape()))
        return INFINITY;
    const Tensor x = cast(a, DType::Float64), y = cast(b, DType::Float64);
    double worst = 0.0;
    for (std::int64_t i = 0; i < x.numel(); ++i) {
        const double d = std::abs(x.data<double>()[i] - y.data<double>()[i]);
        worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
    return worst;
}

/// The gradients of sum(f(inputs) * weight) with respect to every input, weight a fixed
/// non-uniform tensor (so rules that only work for ones fail).
inline TensorList gradsOf(const std::function<Tensor(const TensorList&)>& f, const TensorList& inputs)
{
    const Tensor out = f(inputs);
    const Tensor weight = cast(sample(out.shape(), 0.5, 1.5, 7), out.dtype());
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        positions.push_back(static_cast<std::int64_t>(i));
    const Value g = grad([&](const std::vector<Value>& a) {
        TensorList in;
        for (const Value& v : a)
            in.push_back(v.tensor());
        return Value(reduceSum(mul(f(in), weight)));
    }, positions)(std::vector<Value>(inputs.begin(), inputs.end()));
    TensorList result;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        result.push_back(g.isTensor() ? g.tensor() : g[i].tensor()); // one position: a bare Tensor
    return result;
}

inline TensorList castAll(const TensorList& inputs, DType dtype)
{
    TensorList out;
    for (const Tensor& t : inputs)
        out.push_back(cast(t, dtype));
    return out;
}

} // namespace gradstep::testing
