// Checks and attribute parsing shared by the nn ops. SPDX-License-Identifier: MIT
#pragma once

#include "ops/dispatch.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gradstep {

/// MindSpore's TypeError for input i unless it has a float dtype.
void requireFloat(const OpCall& call, std::size_t i);
/// The dtypes MindSpore's CPU MatMul / BatchMatMul take: floats, complex, UInt8 and the signed
/// integers (not Bool, not UInt16/32/64).
void requireMatmulDType(const OpCall& call, std::size_t i);
/// DTypeError unless inputs i and j have the same dtype.
void requireSameDType(const OpCall& call, std::size_t i, std::size_t j);
/// requireFloat for the first `count` inputs, all of input 0's dtype (the fused norm ops).
void requireFloatsOfOneDType(const OpCall& call, std::size_t count);
/// ShapeError naming `what` unless input i has exactly `rank` dimensions.
void requireRank(const OpCall& call, std::size_t i, int rank, const char* what);

/// An (h, w) attribute given as one int or a 2-tuple; ValueError unless every value >= minimum.
std::array<std::int64_t, 2> pairAttr(const OpCall& call, const char* name, std::int64_t minimum);
/// A shape attribute (input_size, filter_size) that must have `rank` non-negative entries.
Shape shapeAttr(const OpCall& call, const char* name, int rank);
/// The pad_mode attribute lower-cased; ValueError unless it is one of `allowed`.
std::string padModeAttr(const OpCall& call, const std::vector<std::string>& allowed);

/// Output length and leading padding of one spatial axis under pad_mode "same": ceil(in / stride)
/// outputs, total padding split with the extra row/column at the bottom/right.
struct SamePadding {
    std::int64_t out;
    std::int64_t before;
    std::int64_t after;
};
SamePadding samePadding(std::int64_t in, std::int64_t window, std::int64_t stride);

/// Copies of the attributes named in `names` (drops the extras a backward op carries).
Attrs pickAttrs(const Attrs& attrs, std::initializer_list<const char*> names);

/// The gradients of MatMul / BatchMatMul for cotangent g, written with matmul and the transpose
/// flags (so they are differentiable again), summed back over broadcast batch dimensions.
TensorList matmulBackward(const BackwardContext& ctx, const Tensor& g);
/// Shape rule of MatMul / BatchMatMul: float inputs of one dtype whose contracting dimensions match.
void inferMatmul(const OpCall& call, SpecList& out, bool batched);

/// Shape rule and kernel of Softmax / LogSoftmax (float input, `axis` attribute).
void inferSoftmaxLike(const OpCall& call, SpecList& out);
void forwardSoftmaxLike(const OpCall& call, std::span<Tensor> outputs, bool logOutput);
/// The reduced axes of a Softmax-like backward rule: {axis}, or every axis of a 0-D input.
std::vector<std::int64_t> softmaxAxes(const BackwardContext& ctx);

/// ValueError naming `op` unless reduction is "mean", "sum" or "none" (checked before any work).
void checkReduction(const std::string& reduction, const char* op);
/// The elementwise loss reduced as the loss Cells do: mean or sum over every element, or as is.
Tensor applyReduction(const Tensor& loss, const std::string& reduction);

} // namespace gradstep
