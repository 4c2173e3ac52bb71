// ReduceScatter: x's axis 0 is cut into n equal blocks (n = ranks in the group); rank r gets
// y = op over the ranks of block r. MindSpore's bprop (sum only; other ops raise as in
// MindSpore): dx = AllGather(dy). SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"

namespace gradstep {

namespace {

void inferReduceScatter(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    collective::elementType(call, x.dtype());
    collective::reduceOp(call);
    const std::int64_t ranks = collective::groupSize(call);
    if (x.rank() == 0 || x.shape()[0] % ranks != 0)
        throwShapeError(call, "the first dimension of 'input_x' must be divisible by the group size "
                                  + std::to_string(ranks) + ", but got shape " + x.shape().toString());
    Shape shape = x.shape();
    shape[0] /= ranks;
    out.push_back({shape, x.dtype()});
}

void forwardReduceScatter(const OpCall& call, std::span<Tensor> outputs)
{
    collective::reduceInto(call, call.input(0), outputs[0], true);
}

TensorList backwardReduceScatter(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    if (ctx.attrs().getString("op", "sum") != "sum")
        throw RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.");
    return {allGather(grads[0], collective::group(ctx.attrs()))};
}

} // namespace

// writesInputs: see kAllReduce (collectives run alone and in program order).
const OpDef kReduceScatter{"ReduceScatter", "reduce_scatter", OpKind::Other, 1, 1, inferReduceScatter,
                           forwardReduceScatter, backwardReduceScatter, false, ~std::uint64_t{0}, true};

Tensor reduceScatter(const Tensor& x, const std::string& op, const std::string& group)
{
    return callOp1(kReduceScatter, {x}, Attrs{{"op", op}, {"group", group}});
}

} // namespace gradstep
