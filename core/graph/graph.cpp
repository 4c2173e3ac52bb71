// Building and reading graphs; control-flow and fused nodes are in control_flow.cpp.
// SPDX-License-Identifier: MIT
#include "graph/graph.h"

#include "ops/complex_support.h"
#include "ops/dispatch.h"

namespace gradstep {

std::string GraphNode::label() const
{
    return identity.scope.empty() ? std::string(name())
                                  : identity.scope + "/" + std::string(name());
}

Tensor symbolicTensor(const TensorSpec& spec)
{
    auto impl = std::make_shared<TensorImpl>();
    impl->shape = spec.shape;
    impl->dtype = spec.dtype;
    // An empty storage object: its address identifies the value through detach() and views,
    // and a rule that wrongly reads values reads zeros instead of crashing the program.
    impl->storage = std::make_shared<Storage>(0);
    return Tensor(std::move(impl));
}

bool isSymbolic(const Tensor& t)
{
    return t.defined() && t.impl()->storage && t.impl()->storage->bytes() < t.nbytes();
}

std::string_view shortDTypeName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::Float32: return "f32";
    case DType::Int8: return "i8";
    case DType::Int16: return "i16";
    case DType::UInt8: return "u8";
    case DType::UInt16: return "u16";
    case DType::UInt32: return "u32";
    case DType::UInt64: return "u64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Complex64: return "c64";
    case DType::Complex128: return "c128";
    case DType::Float64: break;
    }
    return "f64";
}

std::string specToString(const TensorSpec& spec)
{
    return std::string(shortDTypeName(spec.dtype)) + spec.shape.toString();
}

const GraphValue& Graph::value(ValueId id) const
{
    if (id >= m_values.size())
        throw ValueError("graph '" + m_name + "' has no value " + std::to_string(id));
    return m_values[id];
}

const GraphNode& Graph::node(NodeId id) const
{
    if (id >= m_nodes.size())
        throw ValueError("graph '" + m_name + "' has no node " + std::to_string(id));
    return m_nodes[id];
}

ValueId Graph::newValue(ValueKind kind, TensorSpec spec)
{
    GraphValue v;
    v.id = static_cast<ValueId>(m_values.size());
    v.kind = kind;
    v.spec = std::move(spec);
    m_values.push_back(std::move(v));
    return m_values.back().id;
}

ValueId Graph::addInput(std::string name, TensorSpec spec, ValueKind kind)
{
    if (kind != ValueKind::Argument && kind != ValueKind::Parameter)
        throw ValueError("graph input '" + name + "' must be an argument or a parameter");
    const ValueId id = newValue(kind, std::move(spec));
    m_values[id].name = std::move(name);
    m_values[id].index = static_cast<std::uint32_t>(m_inputs.size());
    m_inputs.push_back(id);
    return id;
}

ValueId Graph::addConstant(Tensor value)
{
    if (!value.defined())
        throw ValueError("graph '" + m_name + "': a constant must be a tensor");
    const ValueId id = newValue(ValueKind::Constant, {value.shape(), value.dtype()});
    m_values[id].constant = value.detach();
    return id;
}

void Graph::checkInputs(std::span<const ValueId> inputs, std::string_view what) const
{
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i] >= m_values.size())
            throw ValueError("for '" + std::string(what) + "', input " + std::to_string(i)
                             + " refers to value " + std::to_string(inputs[i]) + ", which graph '"
                             + m_name + "' does not define");
}

std::vector<ValueId> Graph::newNode(NodeKind kind, const OpDef& op, std::span<const ValueId> inputs,
                                    Attrs attrs, NodeIdentity identity, const SpecList& outputs)
{
    GraphNode node;
    node.id = static_cast<NodeId>(m_nodes.size());
    node.kind = kind;
    node.op = &op;
    node.inputs.assign(inputs.begin(), inputs.end());
    node.attrs = std::move(attrs);
    node.identity = std::move(identity);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const ValueId v = newValue(ValueKind::NodeOutput, outputs[i]);
        m_values[v].node = node.id;
        m_values[v].index = static_cast<std::uint32_t>(i);
        node.outputs.push_back(v);
    }
    m_nodes.push_back(std::move(node));
    return m_nodes.back().outputs;
}

namespace {
void checkArity(const OpDef& op, std::size_t count)
{
    const int n = static_cast<int>(count);
    if (n >= op.minInputs && (op.maxInputs < 0 || n <= op.maxInputs))
        return;
    std::string expected = std::to_string(op.minInputs);
    if (op.maxInputs != op.minInputs)
        expected += op.maxInputs < 0 ? " or more" : " to " + std::to_string(op.maxInputs);
    throw TypeError("for '" + std::string(op.name) + "', expected " + expected + " inputs, got "
                    + std::to_string(n));
}
} // namespace

std::vector<ValueId> Graph::addNode(const OpDef& op, std::span<const ValueId> inputs, Attrs attrs,
                                    NodeIdentity identity)
{
    if (!op.infer)
        throw ValueError("'" + std::string(op.name)
                         + "' is not a registry op; use addIf, addWhile, addWhileGrad or addFused");
    checkInputs(inputs, op.name);
    checkArity(op, inputs.size());
    // Shape rules read shapes, dtypes and attributes; constants are passed with their values.
    TensorList placeholders;
    placeholders.reserve(inputs.size());
    for (ValueId id : inputs) {
        const GraphValue& v = m_values[id];
        placeholders.push_back(v.kind == ValueKind::Constant ? v.constant : symbolicTensor(v.spec));
    }
    SpecList specs;
    const OpCall call{op, placeholders, attrs};
    checkComplexInputs(call);
    op.infer(call, specs);
    return newNode(NodeKind::Op, op, inputs, std::move(attrs), std::move(identity), specs);
}

ValueId Graph::addNode1(const OpDef& op, std::span<const ValueId> inputs, Attrs attrs,
                        NodeIdentity identity)
{
    std::vector<ValueId> out = addNode(op, inputs, std::move(attrs), std::move(identity));
    if (out.size() != 1)
        throw ValueError("'" + std::string(op.name) + "' has " + std::to_string(out.size())
                         + " outputs, expected 1");
    return out[0];
}

ValueId Graph::addNode1(const OpDef& op, std::initializer_list<ValueId> inputs, Attrs attrs,
                        NodeIdentity identity)
{
    return addNode1(op, std::span<const ValueId>(inputs.begin(), inputs.size()), std::move(attrs),
                    std::move(identity));
}

std::vector<ValueId> Graph::addCopy(const GraphNode& node, std::span<const ValueId> inputs)
{
    switch (node.kind) {
    case NodeKind::Op: return addNode(*node.op, inputs, node.attrs, node.identity);
    case NodeKind::If:
        return addIf(inputs[0], inputs.subspan(1), *node.subgraphs[0], *node.subgraphs[1],
                     node.identity);
    case NodeKind::While:
        return addWhile(inputs, *node.subgraphs[0], *node.subgraphs[1],
                        node.attrs.getInt("max_iterations"), node.identity);
    case NodeKind::WhileGrad:
        return addWhileGrad(inputs, *node.subgraphs[0], *node.subgraphs[1], *node.subgraphs[2],
                            node.attrs.getInt("max_iterations"), node.identity);
    case NodeKind::CustomBprop:
        return addCustomBprop(inputs, node.attrs.getInt("arguments"), *node.subgraphs[0],
                              *node.subgraphs[1], node.identity);
    case NodeKind::Fused: break;
    }
    return addFused(inputs, *node.subgraphs[0], node.identity);
}

void Graph::setOutputs(std::vector<ValueId> outputs)
{
    checkInputs(outputs, "return");
    m_outputs = std::move(outputs);
}

void Graph::setValueName(ValueId id, std::string name)
{
    value(id);
    m_values[id].name = std::move(name);
}

void Graph::setBuffer(ValueId id, std::int32_t buffer)
{
    value(id);
    m_values[id].buffer = buffer;
}

void Graph::setOrigin(NodeId id, NodeId origin)
{
    node(id);
    m_nodes[id].identity.origin = origin;
}

std::vector<std::vector<NodeId>> Graph::users() const
{
    std::vector<std::vector<NodeId>> result(m_values.size());
    for (const GraphNode& n : m_nodes)
        for (ValueId in : n.inputs)
            result[in].push_back(n.id);
    return result;
}

std::size_t Graph::totalNodeCount() const
{
    std::size_t count = m_nodes.size();
    for (const GraphNode& n : m_nodes)
        for (const auto& sub : n.subgraphs)
            count += sub->totalNodeCount();
    return count;
}

} // namespace gradstep
