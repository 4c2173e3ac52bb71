// The cube kernel of the Custom op tests. SPDX-License-Identifier: MIT
#include "tests/core/ops/custom/cube_kernel.h"

#include "ops/ops.h"

namespace gradstep::testing {

std::shared_ptr<const CustomKernel> cubeKernel(bool withBprop)
{
    auto kernel = std::make_shared<CustomKernel>();
    kernel->funcName = "cube";
    kernel->funcType = "test";
    kernel->infer = [](const OpCall& call, SpecList& out) { out.push_back({call.input(0).shape(), DType::Float64}); };
    kernel->forward = [](const OpCall& call, std::span<Tensor> outputs) {
        const Tensor& x = call.input(0);
        auto* y = static_cast<double*>(outputs[0].rawData());
        for (std::int64_t i = 0; i < x.numel(); ++i) {
            const double v = x.at(i);
            y[i] = v * v * v;
        }
    };
    if (withBprop)
        kernel->backward = [](const BackwardContext& ctx, std::span<const Tensor> grads) {
            const Tensor& x = ctx.input(0);
            return TensorList{mul(mul(Tensor::scalar(3.0, DType::Float64), mul(x, x)), grads[0])};
        };
    return kernel;
}

} // namespace gradstep::testing
