// The per-element loop of ops without a batching rule: the op runs once per batch element on
// slices of its batched inputs and each output is stacked along a new axis 0. Slicing (Gather of
// index b) and stacking are ops, so gradients flow through the loop as through a rule.
// SPDX-License-Identifier: MIT
#include "ops/batching/batch_rules.h"

#include "ops/dispatch.h"
#include "ops/shape_ops.h"

namespace gradstep {

OutputList runPerElement(const BatchedCall& call)
{
    ++batchStats().perElementOps;
    std::vector<TensorList> perOutput;
    for (std::int64_t b = 0; b < call.batchSize; ++b) {
        const Tensor index = Tensor::scalar(static_cast<double>(b), DType::Int64);
        TensorList inputs;
        for (const BatchedInput& in : call.inputs)
            inputs.push_back(in.batched ? gather(in.physical, index, 0) : in.physical);
        OutputList outs = callOp(call.op, inputs, call.attrs);
        perOutput.resize(outs.size());
        for (std::size_t k = 0; k < outs.size(); ++k)
            perOutput[k].push_back(std::move(outs[k]));
    }
    OutputList result;
    for (const TensorList& pieces : perOutput)
        result.push_back(stack(pieces, 0));
    return result;
}

} // namespace gradstep
