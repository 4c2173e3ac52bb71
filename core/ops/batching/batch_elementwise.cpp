// Batching rules of elementwise ops: the batch becomes a leading axis that NumPy broadcasting
// lines up. SPDX-License-Identifier: MIT
#include "ops/batching/batch_rules.h"

#include "ops/dispatch.h"
#include "ops/shape_ops.h"

#include <algorithm>

namespace gradstep {

// A batched input of logical rank r broadcast against rank R > r gets R - r axes of size 1
// between the batch axis and its own axes, so the batch axis stays the leading one of the
// result; unbatched inputs broadcast from the right as they would for one element.
OutputList batchElementwise(const BatchedCall& call)
{
    int rank = 0;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        if (call.input(i).logical.defined())
            rank = std::max(rank, logicalRank(call, i));
    TensorList physical;
    for (std::size_t i = 0; i < call.inputs.size(); ++i) {
        const BatchedInput& in = call.input(i);
        if (!in.batched || logicalRank(call, i) == rank) {
            physical.push_back(in.physical);
            continue;
        }
        std::vector<std::int64_t> shape{call.batchSize};
        shape.insert(shape.end(), static_cast<std::size_t>(rank - logicalRank(call, i)), 1);
        for (std::int64_t d : in.logical.shape().toVector())
            shape.push_back(d);
        physical.push_back(reshape(in.physical, shape));
    }
    return callOp(call.op, physical, call.attrs);
}

// One input, applied to every element alike (ZerosLike, StopGradient, Dropout's independent
// mask per element).
OutputList batchUnary(const BatchedCall& call)
{
    TensorList physical;
    for (const BatchedInput& in : call.inputs)
        physical.push_back(in.physical);
    return callOp(call.op, physical, call.attrs);
}

} // namespace gradstep
