// LayerNorm, GroupNorm and BatchNorm composed from ops (see norm_composed.h), for the tests. SPDX-License-Identifier: MIT
#include "tests/core/ops/nn/norm_composed.h"

#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

TensorList layerNormComposed(const TensorList& xgb, std::int64_t beginNormAxis, double epsilon)
{
    const Tensor& x = xgb[0];
    std::vector<std::int64_t> axes;
    for (int a = normalizeAxis(beginNormAxis, x.rank(), "LayerNorm"); a < x.rank(); ++a)
        axes.push_back(a);
    const Tensor mean = reduceMean(x, axes, true);
    const Tensor centered = sub(x, mean);
    const Tensor var = reduceMean(mul(centered, centered), axes, true);
    const Tensor y = mul(centered, rsqrt(add(var, scalarLike(epsilon, var))));
    return {add(mul(y, xgb[1]), xgb[2]), mean, var};
}

TensorList groupNormComposed(const TensorList& xgb, std::int64_t groups, double epsilon)
{
    const Tensor& x = xgb[0];
    const std::int64_t n = x.shape()[0], c = x.shape()[1];
    const Tensor grouped = reshape(x, {n, groups, -1});
    const Tensor mean = reduceMean(grouped, {2}, true);
    const Tensor centered = sub(grouped, mean);
    const Tensor var = reduceMean(mul(centered, centered), {2}, true);
    const Tensor normalized = reshape(mul(centered, rsqrt(add(var, scalarLike(epsilon, var)))), x.shape().toVector());
    std::vector<std::int64_t> channel(static_cast<std::size_t>(x.rank()), 1);
    channel[1] = c;
    const Tensor y = add(mul(normalized, reshape(xgb[1], channel)), reshape(xgb[2], channel));
    return {y, reshape(mean, {n, groups}), reshape(var, {n, groups})};
}

TensorList batchNormComposed(const TensorList& inputs, bool training, double epsilon)
{
    const Tensor& x = inputs[0];
    const std::int64_t c = x.shape()[1];
    std::vector<std::int64_t> channel(static_cast<std::size_t>(x.rank()), 1);
    channel[1] = c;
    std::vector<std::int64_t> axes{0};
    for (int a = 2; a < x.rank(); ++a)
        axes.push_back(a);
    const Tensor mean = training ? reduceMean(x, axes, true) : reshape(inputs[3], channel);
    const Tensor centered = sub(x, mean);
    const Tensor var = training ? reduceMean(mul(centered, centered), axes, true) : reshape(inputs[4], channel);
    const Tensor normalized = mul(centered, rsqrt(add(var, scalarLike(epsilon, var))));
    const Tensor y = add(mul(normalized, reshape(inputs[1], channel)), reshape(inputs[2], channel));
    if (!training)
        return {y, inputs[3], inputs[4]};
    return {y, reshape(mean, {c}), reshape(var, {c})};
}

} // namespace gradstep
