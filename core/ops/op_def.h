// The definition of one primitive op: shape/dtype rule, forward kernel, backward rule and
// display label, side by side. Every mode, pass, view and exporter reads this one entry.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/attrs.h"
#include "tensor/small_vector.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gradstep {

struct OpDef;
class Node;

struct TensorSpec {
    Shape shape;
    DType dtype = DType::Float32;
};

using SpecList = SmallVector<TensorSpec, 2>;
using OutputList = SmallVector<Tensor, 2>;

/// What a shape rule and a kernel see: the op, its inputs and attributes.
struct OpCall {
    const OpDef& op;
    std::span<const Tensor> inputs;
    const Attrs& attrs;

    const Tensor& input(std::size_t i) const { return inputs[i]; }
    /// "'Conv2D' with inputs [32, 1, 32, 32] Float32, [6, 1, 5, 5] Float32 and attrs {...}".
    std::string describe() const;
};

/// What a backward rule sees: the node's saved inputs (with their autodiff links, so rules
/// written with ops are themselves differentiable), its outputs and attributes.
class BackwardContext {
public:
    explicit BackwardContext(const Node& node) : m_node(node) {}
    const Tensor& input(std::size_t i) const;
    std::size_t inputCount() const;
    /// Output i, linked back to this node so that grad of grad sees it as a function of the inputs.
    Tensor output(std::size_t i) const;
    const Attrs& attrs() const;
    bool needsGrad(std::size_t inputIndex) const;
    const Node& node() const { return m_node; }

private:
    const Node& m_node;
};

using InferFn = void (*)(const OpCall& call, SpecList& out);
using ForwardFn = void (*)(const OpCall& call, std::span<Tensor> outputs);
/// Returns one gradient per input; an undefined Tensor means "no gradient" (e.g. integer indices).
using BackwardFn = TensorList (*)(const BackwardContext& ctx, std::span<const Tensor> gradOutputs);

enum class OpKind : std::uint8_t { Elementwise, Reduction, Shape, NN, Loss, Other };

struct OpDef {
    std::string_view name;  ///< MindSpore primitive name, used in scope paths: "Conv2D"
    std::string_view label; ///< short display label: "conv2d"
    OpKind kind = OpKind::Other;
    int minInputs = 1;
    int maxInputs = 1;      ///< -1: variadic
    InferFn infer = nullptr;
    ForwardFn forward = nullptr;
    BackwardFn backward = nullptr; ///< nullptr: not differentiable (comparisons, argmax, ...)
    /// Kernel sets the outputs itself (aliases such as reshape) instead of filling preallocated ones.
    bool allocatesOutputs = false;
    /// Bit i set: input i is differentiable (indices and labels are not).
    std::uint64_t differentiableInputs = ~std::uint64_t{0};
    /// Kernel writes into an input (optimizer updates): a graph never runs it beside other nodes.
    bool writesInputs = false;
    /// Draws random numbers: two calls with the same inputs differ, so passes never merge,
    /// fold or hoist it.
    bool random = false;
    /// Bit i set: input i is a Bool condition whatever dtype the op computes in (Select's
    /// first input), so a fusion pass does not expect it in the compute dtype.
    std::uint64_t conditionInputs = 0;

    bool differentiable() const { return backward != nullptr; }
};

} // namespace gradstep
