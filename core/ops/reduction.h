// Reductions. `axis` empty means every axis (MindSpore's axis=()). One file per op under reduction/.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <vector>

namespace gradstep {

Tensor reduceSum(const Tensor& x, std::vector<std::int64_t> axis = {}, bool keepDims = false);
Tensor reduceMean(const Tensor& x, std::vector<std::int64_t> axis = {}, bool keepDims = false);
/// Ties: the gradient is split evenly among the tied maxima (documented in reduce_max.cpp).
Tensor reduceMax(const Tensor& x, std::vector<std::int64_t> axis = {}, bool keepDims = false);
Tensor reduceMin(const Tensor& x, std::vector<std::int64_t> axis = {}, bool keepDims = false);
/// Index of the first maximum along axis, Int32 (MindSpore's Argmax default output type).
Tensor argmax(const Tensor& x, std::int64_t axis = -1, bool keepDims = false);
Tensor argmin(const Tensor& x, std::int64_t axis = -1, bool keepDims = false);
/// p-norm over axis (p = 2 by default); the gradient at an all-zero slice is zero.
Tensor norm(const Tensor& x, std::vector<std::int64_t> axis = {}, double p = 2.0, bool keepDims = false);

} // namespace gradstep
