// DistributedGradReducer. SPDX-License-Identifier: MIT
#include "nn/wrappers/grad_reducer.h"

#include "ops/collective_ops.h"
#include "ops/elementwise.h"
#include "tensor/errors.h"

namespace gradstep {

TensorList reduceGradients(const TensorList& gradients, const GradientReduction& reduction)
{
    if (reduction.degree <= 0)
        throw ValueError("For 'DistributedGradReducer', degree should be large than 0 and be int, degree: "
                         + std::to_string(reduction.degree) + ".");
    TensorList out;
    out.reserve(gradients.size());
    for (const Tensor& g : gradients) {
        if (!g.defined()) {
            out.push_back(g);
            continue;
        }
        Tensor summed = allReduce(g, "sum", reduction.group);
        // As MindSpore: the mean divides after the sum, in the gradient's dtype.
        if (reduction.mean)
            summed = div(summed, Tensor::scalar(static_cast<double>(reduction.degree), g.dtype()));
        out.push_back(summed);
    }
    return out;
}

} // namespace gradstep
