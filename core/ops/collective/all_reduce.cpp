// AllReduce: y = op(x_0, ..., x_{n-1}) elementwise over the group's ranks, the same on every
// rank (op: sum, max, min, prod). MindSpore's bprop: sum: dx = AllReduce(sum)(dy); prod:
// dx = AllReduce(sum)(dy * y) / x (inf or NaN where x is 0, as MindSpore's); max/min:
// dx = AllReduce(sum)(dy) * (x == y), so every rank holding the extreme gets the summed
// gradient (ties included). NaN/Inf follow MPI's arithmetic. SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"

namespace gradstep {

namespace {

void inferAllReduce(const OpCall& call, SpecList& out)
{
    collective::elementType(call, call.input(0).dtype());
    collective::reduceOp(call);
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardAllReduce(const OpCall& call, std::span<Tensor> outputs)
{
    collective::reduceInto(call, call.input(0), outputs[0], false);
}

TensorList backwardAllReduce(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::string group = collective::group(ctx.attrs());
    const std::string op = ctx.attrs().getString("op", "sum");
    if (op == "sum")
        return {allReduce(grads[0], "sum", group)};
    const Tensor& x = ctx.input(0);
    const Tensor y = ctx.output(0);
    if (op == "prod")
        return {div(allReduce(mul(grads[0], y), "sum", group), x)};
    return {mul(allReduce(grads[0], "sum", group), cast(equal(x, y), grads[0].dtype()))};
}

} // namespace

// writesInputs: a collective must run alone and in program order on every rank, so a compiled
// graph never runs it beside other nodes and no pass merges, folds or moves it.
const OpDef kAllReduce{"AllReduce", "all_reduce", OpKind::Other, 1, 1, inferAllReduce, forwardAllReduce,
                       backwardAllReduce, false, ~std::uint64_t{0}, true};

Tensor allReduce(const Tensor& x, const std::string& op, const std::string& group)
{
    return callOp1(kAllReduce, {x}, Attrs{{"op", op}, {"group", group}});
}

} // namespace gradstep
