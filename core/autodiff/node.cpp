// Tape nodes. SPDX-License-Identifier: MIT
#include "autodiff/node.h"

#include <vector>

namespace gradstep {

// Note [Releasing long tapes]
// A node owns its saved inputs, each input's state owns the node that produced it, and so on to
// the first op: dropping the last handle of a long tape would destroy it by recursion, one set of
// destructor frames per node, and a chain of 100,000 ops overflows the stack. So a node being
// destroyed moves out the links it solely owns (an input whose state nobody else holds, the
// origin) into a work list and releases them one at a time, doing the same for each node it turns
// out to be the last owner of; every node then dies with no links left, so no destructor recurses.
// Handles are released in order, so an input saved twice (x * x) is found sole-owned at its last
// copy. Links captured inside a custom backward's closure are not reached: those nodes are rare
// and shallow.
Node::~Node()
{
    std::vector<Tensor> tensors;
    std::vector<std::shared_ptr<Node>> nodes;
    const auto takeLinks = [&](Node& node) {
        for (Tensor& in : node.inputs)
            tensors.push_back(std::move(in));
        node.inputs.clear();
        if (node.origin)
            nodes.push_back(std::move(node.origin));
    };
    takeLinks(*this);
    while (!tensors.empty() || !nodes.empty()) {
        if (!tensors.empty()) {
            Tensor t = std::move(tensors.back());
            tensors.pop_back();
            if (t.defined() && t.soleOwner() && t.impl()->gradFn)
                nodes.push_back(std::move(t.impl()->gradFn));
            continue; // t (and its state, now unlinked) is released here
        }
        std::shared_ptr<Node> node = std::move(nodes.back());
        nodes.pop_back();
        if (node.use_count() == 1)
            takeLinks(*node);
    }
}

std::string Node::opName() const
{
    if (op)
        return std::string(op->name);
    return isLeaf() ? "Parameter" : name;
}

std::string Node::label() const
{
    std::string base = isLeaf() ? name : opName();
    return scope ? *scope + "/" + base : base;
}

std::string Node::describe() const
{
    std::string s = "#" + std::to_string(seq) + " " + label() + "(";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (i)
            s += ", ";
        const Tensor& in = inputs[i];
        if (in.defined() && in.gradFn())
            s += "#" + std::to_string(in.gradFn()->seq) + ":" + std::to_string(in.outputIndex());
        else
            s += "const";
    }
    s += ") ->";
    for (std::size_t i = 0; i < outputs.size(); ++i)
        s += (i ? ", " : " ") + outputs[i].shape().toString() + " " + std::string(dtypeName(outputs[i].dtype()));
    if (!attrs.empty())
        s += " " + attrs.toString();
    s += std::string(" [") + phaseName(phase) + "]";
    if (location.file)
        s += " @ " + location.toString();
    if (origin)
        s += " (from #" + std::to_string(origin->seq) + ")";
    return s;
}

std::shared_ptr<Node> makeLeafNode(const std::string& name)
{
    auto node = std::make_shared<Node>();
    node->name = name;
    return node;
}

} // namespace gradstep
