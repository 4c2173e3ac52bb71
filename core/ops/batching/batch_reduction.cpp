// Batching rules of reductions: the reduced axes move past the batch axis, which is never
// reduced. SPDX-License-Identifier: MIT
#include "ops/batching/batch_rules.h"

#include "ops/dispatch.h"

namespace gradstep {

// axis = () reduces every axis of the element, which is not "every axis" of the physical
// tensor: the element's axes are listed explicitly. An element of rank 0 (no axis to list) runs
// per element.
OutputList batchReduceAxes(const BatchedCall& call)
{
    const int rank = logicalRank(call, 0);
    if (rank == 0)
        return runPerElement(call);
    std::vector<std::int64_t> axes = call.attrs.getInts("axis", {});
    if (axes.empty()) {
        for (int a = 0; a < rank; ++a)
            axes.push_back(a);
    }
    for (std::int64_t& a : axes)
        a = physicalAxis(call, a, rank);
    Attrs attrs = call.attrs;
    attrs.set("axis", axes);
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

// Argmax / Argmin: one axis, -1 by default.
OutputList batchReduceAxis(const BatchedCall& call)
{
    Attrs attrs = call.attrs;
    attrs.set("axis", physicalAxis(call, call.attrs.getInt("axis", -1), logicalRank(call, 0)));
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

} // namespace gradstep
