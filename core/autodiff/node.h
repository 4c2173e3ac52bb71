// A recorded op on a tape: op, saved inputs (with their autodiff links), outputs, attributes and
// identity. Inputs point to earlier nodes only, so the graph has no cycles.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "ops/op_def.h"

#include <functional>
#include <memory>
#include <string>

namespace gradstep {

/// A backward rule held by value, for nodes that are not primitive ops (custom bprop, grad inputs).
using CustomBackward = std::function<TensorList(const BackwardContext&, std::span<const Tensor>)>;

class Node : public std::enable_shared_from_this<Node> {
public:
    Node() = default;
    /// Releases the chain of earlier nodes iteratively: see Note [Releasing long tapes].
    ~Node();
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    const OpDef* op = nullptr;   ///< null for leaves and custom nodes
    std::uint64_t seq = 0;
    Attrs attrs;
    OutputList inputs;           ///< saved inputs, autodiff links intact
    OutputList outputs;          ///< outputs without autodiff links (a link here would be a cycle)
    Phase phase = Phase::Forward;
    std::shared_ptr<const std::string> scope;
    SourceLocation location;
    std::string name;            ///< leaves: parameter name; custom nodes: their label
    CustomBackward customBackward;
    /// Set on nodes recorded while a backward rule ran: the forward node that rule belongs to.
    std::shared_ptr<Node> origin;

    bool isLeaf() const { return op == nullptr && !customBackward; }
    /// Op or custom name: "Conv2D", "Parameter", "CustomBprop".
    std::string opName() const;
    /// Scope path plus op name: "LeNet5/conv1/Conv2D".
    std::string label() const;
    /// One line for tape dumps: "#12 LeNet5/conv1/Conv2D(#3:0, #11:0) -> [32, 6, 28, 28] Float32 {...}".
    std::string describe() const;
};

/// Creates the leaf node of a Parameter: a node with no inputs that collects its gradient.
std::shared_ptr<Node> makeLeafNode(const std::string& name);

} // namespace gradstep
