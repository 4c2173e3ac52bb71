// Tape nodes. SPDX-License-Identifier: MIT
#include "autodiff/node.h"

namespace gradstep {

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
