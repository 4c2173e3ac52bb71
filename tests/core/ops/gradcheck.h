// The table of gradient-check cases: every differentiable op in the registry must have at least
// one, or gradcheck_test.cpp fails. Each op family adds its cases from its own file with
// GRADCHECK_CASES. SPDX-License-Identifier: MIT
#pragma once

#include "ops/nn_ops.h"
#include "tensor/tensor.h"

#include <functional>
#include <string>
#include <vector>

namespace gradstep::testing {

struct GradCheckCase {
    std::string op;   ///< registry name the case covers, e.g. "Add"
    std::string name; ///< what the case exercises, e.g. "broadcast [2, 3] + [3]"
    /// Applies the op (maybe with other ops around it) and returns one float64 tensor.
    std::function<Tensor(const TensorList&)> fn;
    TensorList inputs; ///< float64 points away from kinks; non-float inputs are held constant
    /// Grad of grad is checked too unless false (say why in the case when it is switched off).
    bool secondOrder = true;
    /// The function whose finite differences the analytic gradient must match, when that is not
    /// fn itself (stop_gradient: the function without the cut term). Must return float64.
    std::function<Tensor(const TensorList&)> reference = nullptr;
};

std::vector<GradCheckCase>& gradCheckCases();

struct GradCheckRegistrar {
    explicit GradCheckRegistrar(std::vector<GradCheckCase> cases);
};

/// A float64 tensor with deterministic values in [low, high) (a fixed LCG keyed by `seed`).
Tensor sample(const Shape& shape, double low = -1.0, double high = 1.0, unsigned seed = 1);
/// A float64 tensor from explicit values.
Tensor values(const Shape& shape, const std::vector<double>& v);
/// Conv2D's options from their parts.
Conv2dOptions convOptions(std::vector<std::int64_t> stride, std::string mode, std::vector<std::int64_t> padding,
                          std::vector<std::int64_t> dilation, std::int64_t group = 1);

} // namespace gradstep::testing

#define GRADCHECK_CONCAT_INNER(a, b) a##b
#define GRADCHECK_CONCAT(a, b) GRADCHECK_CONCAT_INNER(a, b)
/// GRADCHECK_CASES({ {"Add", "same shape", fn, {a, b}}, ... });
#define GRADCHECK_CASES(...)                                                                        \
    static const ::gradstep::testing::GradCheckRegistrar GRADCHECK_CONCAT(gradcheckRegistrar, __LINE__)( \
        std::vector<::gradstep::testing::GradCheckCase> __VA_ARGS__)
