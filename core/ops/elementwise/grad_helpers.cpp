// Helpers shared by backward rules of broadcasting ops. SPDX-License-Identifier: MIT
#include "ops/elementwise/grad_helpers.h"

#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

Tensor sumToShape(const Tensor& grad, const Shape& shape)
{
    if (grad.shape() == shape)
        return grad;
    const int lead = grad.rank() - shape.rank();
    std::vector<std::int64_t> axes;
    for (int axis = 0; axis < grad.rank(); ++axis)
        if (axis < lead || shape[axis - lead] == 1)
            axes.push_back(axis);
    Tensor summed = axes.empty() ? grad : reduceSum(grad, axes, true);
    return reshape(summed, shape.toVector());
}

Tensor scalarLike(double value, const Tensor& like)
{
    return Tensor::scalar(value, isFloating(like.dtype()) || isComplex(like.dtype()) ? like.dtype() : DType::Float32);
}

Tensor gradForInput(const BackwardContext& ctx, std::size_t i, const Tensor& grad)
{
    const Tensor& in = ctx.input(i);
    if (!ctx.needsGrad(i) || !carriesGradient(in.dtype()))
        return Tensor();
    Tensor g = sumToShape(grad, in.shape());
    return g.dtype() == in.dtype() ? g : cast(g, in.dtype());
}

} // namespace gradstep
