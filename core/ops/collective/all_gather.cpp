// AllGather: y = concat(x_0, ..., x_{n-1}) along axis 0 in rank order, the same on every rank.
// MindSpore's bprop: dx = ReduceScatter(sum)(dy), each rank's block of the summed gradient.
// SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"

namespace gradstep {

namespace {

void inferAllGather(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    collective::elementType(call, x.dtype());
    if (x.rank() == 0)
        throwShapeError(call, "the 'input_x' must have at least one dimension, but got a scalar");
    Shape shape = x.shape();
    shape[0] *= collective::groupSize(call);
    out.push_back({shape, x.dtype()});
}

void forwardAllGather(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    dist::allGather(x.rawData(), outputs[0].rawData(), x.numel(), collective::elementType(call, x.dtype()),
                    collective::group(call.attrs), "AllGather");
}

TensorList backwardAllGather(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {reduceScatter(grads[0], "sum", collective::group(ctx.attrs()))};
}

} // namespace

// writesInputs: see kAllReduce (collectives run alone and in program order).
const OpDef kAllGather{"AllGather", "all_gather", OpKind::Other, 1, 1, inferAllGather, forwardAllGather,
                       backwardAllGather, false, ~std::uint64_t{0}, true};

Tensor allGather(const Tensor& x, const std::string& group)
{
    return callOp1(kAllGather, {x}, Attrs{{"group", group}});
}

} // namespace gradstep
