// Graph autodiff: a transform that appends to a forward graph the nodes computing the gradients
// of its outputs. Each node's derivative comes from its op's own backward rule in the registry,
// traced into graph nodes over symbolic tensors (one source of truth with PyNative).
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <cstddef>
#include <limits>

namespace gradstep {

struct GradientSpec {
    /// Graph inputs (arguments or parameters) to differentiate with respect to, in result order.
    std::vector<ValueId> wrt;
    /// The first n outputs are differentiated (has_aux: 1); the others pass through untouched.
    std::size_t differentiatedOutputs = std::numeric_limits<std::size_t>::max();
    /// Seeds are new graph inputs "sens0", "sens1", ... (one per differentiated output, after the
    /// graph's own inputs) instead of ones: MindSpore's sens_param.
    bool sensInputs = false;
};

/// Note [Graph autodiff]. The result holds the forward graph unchanged (same value and node ids),
/// then the backward nodes: phase Backward, scope "Gradients/<forward scope>", the forward node's
/// source location, and `origin` naming the forward node whose rule produced them. Its outputs
/// are the forward outputs followed by one gradient per `wrt` entry (zeros when the outputs do not
/// depend on it). Gradients accumulate in the order the PyNative engine adds them. If nodes get an
/// If node over their branches' gradient graphs; fused nodes are differentiated through their
/// members; While nodes get a WhileGrad node (Note [While gradients] in graph.h), which itself
/// has no gradient (AutodiffError naming the node: no second order through loops); CustomBprop
/// nodes get their bprop subgraph inlined (Note [Custom bprop in graphs] in graph.h).
Graph gradientGraph(const Graph& forward, const GradientSpec& spec);

/// Copies `callee`'s nodes into `into` over `arguments` (one per callee input) and returns the
/// values of its outputs; constants are copied, origins are remapped to the copies.
std::vector<ValueId> inlineGraph(Graph& into, const Graph& callee,
                                 std::span<const ValueId> arguments);

} // namespace gradstep
