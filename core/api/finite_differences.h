// The gradients of one gradient-function call checked the way gradcheck checks them: central
// differences of the call's objective in float64 at sampled elements of each differentiated
// input and weight (compare --what fd). SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/parameter.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gradstep {

/// A gradient known at some of its elements.
struct SampledGradient {
    std::string name;                  ///< "input<position>" or the Parameter's name
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> indices; ///< row-major element indices, ascending
    std::vector<double> values;        ///< the central differences at `indices`
};

struct FiniteDifferenceOptions {
    std::size_t maxElements = 24; ///< per tensor; smaller tensors are checked whole
    double step = 1e-6;           ///< h = step * max(1, |x|)
};

/// The elements of a tensor of `analytic`'s shape to check: all of them up to maxElements, else
/// the third with the largest |analytic| (where a wrong rule shows most) and the rest spread
/// evenly over the tensor.
std::vector<std::int64_t> sampleElements(const Tensor& analytic, std::size_t maxElements);

/// (f(x + h e_i) - f(x - h e_i)) / 2h for the sampled elements i of every float tensor at
/// `positions` of `args` and of every float weight, with every op computing in float64 (the
/// perturbed tensors are float64 copies and the mixed-precision type is Float64; an explicit Cast
/// inside the function still narrows). Weights get their values back afterwards. The analytic
/// gradients choose the samples; non-float tensors get an entry without elements.
std::vector<SampledGradient> centralDifferences(const std::function<double(const std::vector<Value>&)>& objective,
                                                const std::vector<Value>& args,
                                                std::span<const std::int64_t> positions,
                                                std::span<const Parameter> weights,
                                                std::span<const Tensor> inputGrads,
                                                std::span<const Tensor> weightGrads,
                                                const FiniteDifferenceOptions& options = {});

} // namespace gradstep
