// Broadcast: y = x of the root rank, on every rank of the group. MindSpore's bprop passes the
// gradient through unchanged: dx = dy (on every rank, root or not). SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"

#include <cstring>

namespace gradstep {

namespace {

void inferBroadcast(const OpCall& call, SpecList& out)
{
    collective::elementType(call, call.input(0).dtype());
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardBroadcast(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    if (x.nbytes() > 0)
        std::memcpy(outputs[0].rawData(), x.rawData(), x.nbytes());
    dist::broadcast(outputs[0].rawData(), x.numel(), collective::elementType(call, x.dtype()),
                    static_cast<int>(call.attrs.getInt("root_rank")), collective::group(call.attrs), "Broadcast");
}

TensorList backwardBroadcast(const BackwardContext&, std::span<const Tensor> grads) { return {grads[0]}; }

} // namespace

// writesInputs: see kAllReduce (collectives run alone and in program order).
const OpDef kBroadcast{"Broadcast", "broadcast", OpKind::Other, 1, 1, inferBroadcast, forwardBroadcast,
                       backwardBroadcast, false, ~std::uint64_t{0}, true};

Tensor broadcast(const Tensor& x, std::int64_t rootRank, const std::string& group)
{
    return callOp1(kBroadcast, {x}, Attrs{{"root_rank", rootRank}, {"group", group}});
}

} // namespace gradstep
