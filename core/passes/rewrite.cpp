// Rebuilding graphs for passes. SPDX-License-Identifier: MIT
#include "passes/rewrite.h"

namespace gradstep {

GraphRewriter::GraphRewriter(const Graph& source, const std::vector<bool>* keepConstants)
    : m_source(source), m_graph(source.name()), m_values(source.values().size(), kNoId),
      m_nodes(source.nodes().size(), kNoId)
{
    for (ValueId in : source.inputs()) {
        const GraphValue& v = source.value(in);
        m_values[in] = m_graph.addInput(v.name, v.spec, v.kind);
    }
    for (const GraphValue& v : source.values())
        if (v.kind == ValueKind::Constant && (!keepConstants || (*keepConstants)[v.id])) {
            m_values[v.id] = m_graph.addConstant(v.constant);
            m_graph.setValueName(m_values[v.id], v.name);
        }
}

ValueId GraphRewriter::map(ValueId old) const
{
    const ValueId v = m_values.at(old);
    if (v == kNoId)
        throw RuntimeError("pass error: value " + std::to_string(old) + " of graph '"
                           + m_source.name() + "' was used before its node was rebuilt");
    return v;
}

void GraphRewriter::replace(ValueId old, ValueId replacement) { m_values.at(old) = replacement; }

std::vector<ValueId> GraphRewriter::copy(const GraphNode& node,
                                         const std::vector<std::shared_ptr<const Graph>>* subgraphs)
{
    std::vector<ValueId> inputs;
    inputs.reserve(node.inputs.size());
    for (ValueId in : node.inputs)
        inputs.push_back(map(in));
    std::vector<ValueId> outs;
    if (subgraphs) {
        GraphNode changed = node;
        changed.subgraphs = *subgraphs;
        outs = m_graph.addCopy(changed, inputs);
    } else {
        outs = m_graph.addCopy(node, inputs);
    }
    const NodeId copied = m_graph.value(outs[0]).node;
    m_nodes[node.id] = copied;
    const NodeId origin = node.identity.origin;
    m_graph.setOrigin(copied, origin != kNoId && origin < m_nodes.size() ? m_nodes[origin] : kNoId);
    for (std::size_t i = 0; i < outs.size(); ++i) {
        m_values[node.outputs[i]] = outs[i];
        m_graph.setValueName(outs[i], m_source.value(node.outputs[i]).name);
    }
    return outs;
}

Graph GraphRewriter::finish()
{
    std::vector<ValueId> outputs;
    for (ValueId out : m_source.outputs())
        outputs.push_back(map(out));
    m_graph.setOutputs(std::move(outputs));
    return std::move(m_graph);
}

std::string countNoun(std::int64_t count, std::string_view noun, std::string_view plural)
{
    if (count == 1)
        return "1 " + std::string(noun);
    return std::to_string(count) + " "
           + (plural.empty() ? std::string(noun) + "s" : std::string(plural));
}

const GraphNode* producerOf(const Graph& g, ValueId v, const OpDef* op)
{
    const GraphValue& value = g.value(v);
    if (value.kind != ValueKind::NodeOutput)
        return nullptr;
    const GraphNode& node = g.node(value.node);
    return !op || isOpNode(node, *op) ? &node : nullptr;
}

} // namespace gradstep
