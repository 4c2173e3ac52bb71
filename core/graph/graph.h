// The static IR of graph mode: SSA values with inferred shape and dtype, and nodes applying a
// registry op (or control flow, or a fused elementwise kernel) to them. SPDX-License-Identifier:
// MIT
#pragma once

#include "autodiff/identity.h"
#include "ops/op_def.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep {

class Graph;
using ValueId = std::uint32_t;
using NodeId = std::uint32_t;
inline constexpr std::uint32_t kNoId = 0xffffffffu;

enum class ValueKind : std::uint8_t { Argument, Parameter, Constant, NodeOutput };
enum class NodeKind : std::uint8_t { Op, If, While, Fused, WhileGrad, CustomBprop };

// The pseudo-ops naming the nodes that are not registry ops; they have no kernels of their own.
extern const OpDef kIfOp;
extern const OpDef kWhileOp;
extern const OpDef kFusedElementwiseOp;
extern const OpDef kWhileGradOp;
extern const OpDef kCustomBpropOp;

/// MindSpore's default bound on a while loop's iterations (its max_call_depth, 1000).
inline constexpr std::int64_t kDefaultMaxIterations = 1000;

struct GraphValue {
    ValueId id = kNoId;
    ValueKind kind = ValueKind::NodeOutput;
    TensorSpec spec;
    std::string name;         ///< inputs: argument or parameter name; others may be unnamed
    NodeId node = kNoId;      ///< NodeOutput: the producer
    std::uint32_t index = 0;  ///< NodeOutput: output index; Argument and Parameter: input position
    Tensor constant;          ///< Constant: the value
    std::int32_t buffer = -1; ///< memory-plan slot (buffer_reuse pass); -1 when unplanned

    bool isInput() const { return kind == ValueKind::Argument || kind == ValueKind::Parameter; }
    std::int64_t bytes() const
    {
        return spec.shape.numel() * static_cast<std::int64_t>(itemSize(spec.dtype));
    }
};

struct NodeIdentity {
    std::string scope; ///< Cell scope path, "LeNet5/conv1"; empty at top level
    SourceLocation location;
    Phase phase = Phase::Forward;
    NodeId origin = kNoId; ///< nodes of a backward rule: the forward node the rule belongs to
};

struct GraphNode {
    NodeId id = kNoId;
    NodeKind kind = NodeKind::Op;
    const OpDef* op = nullptr; ///< a registry op, or kIfOp / kWhileOp / kFusedElementwiseOp
    std::vector<ValueId> inputs;
    Attrs attrs;
    std::vector<ValueId> outputs;
    NodeIdentity identity;
    /// If: then, else. While: cond, body. Fused: its member nodes (kept so a view can expand it).
    /// WhileGrad: cond, body, grad (the body's gradient graph). CustomBprop: construct, bprop.
    std::vector<std::shared_ptr<const Graph>> subgraphs;

    std::string_view name() const { return op->name; }
    /// Scope path plus op name: "LeNet5/conv1/Conv2D".
    std::string label() const;
};

class Graph {
public:
    explicit Graph(std::string name = "main") : m_name(std::move(name)) {}

    /// A graph input; arguments and parameters are both passed to the executor in input order.
    ValueId addInput(std::string name, TensorSpec spec, ValueKind kind = ValueKind::Argument);
    ValueId addConstant(Tensor value);
    /// Applies a registry op; its shape rule infers the outputs (errors as in PyNative).
    std::vector<ValueId> addNode(const OpDef& op, std::span<const ValueId> inputs, Attrs attrs = {},
                                 NodeIdentity identity = {});
    ValueId addNode1(const OpDef& op, std::span<const ValueId> inputs, Attrs attrs = {},
                     NodeIdentity identity = {});
    ValueId addNode1(const OpDef& op, std::initializer_list<ValueId> inputs, Attrs attrs = {},
                     NodeIdentity identity = {});
    /// condition: a one-element Bool; both branches take the operands and return values of equal
    /// shapes and dtypes (else MindSpore's Type / Shape Join Failed).
    std::vector<ValueId> addIf(ValueId condition, std::span<const ValueId> operands,
                               Graph thenBranch, Graph elseBranch, NodeIdentity identity = {});
    /// while cond(v): v = body(v), at most maxIterations times (more is a RuntimeError).
    std::vector<ValueId> addWhile(std::span<const ValueId> initial, Graph condition, Graph body,
                                  std::int64_t maxIterations, NodeIdentity identity = {});
    /// Note [While gradients]: the gradients of a While node's inputs (the float ones, in order)
    /// given the gradients of its outputs. operands: the loop's initial values, then one gradient
    /// per loop output. bodyGradient: (carried values..., one gradient per body output...) ->
    /// gradients of the body's float inputs (autodiff.h subgraph gradient). The node replays the
    /// loop forward, keeping the carried values of every iteration that ran (never the bound's
    /// worth), then runs bodyGradient once per iteration in reverse.
    std::vector<ValueId> addWhileGrad(std::span<const ValueId> operands, Graph condition,
                                      Graph body, Graph bodyGradient, std::int64_t maxIterations,
                                      NodeIdentity identity = {});
    /// Note [Custom bprop in graphs]: a Cell with a bprop, compiled. operands: the Tensor leaves
    /// of the Cell's arguments (the first `arguments`), then values from outside that its
    /// construct or bprop read (Parameters). construct: (operands...) -> out, what the node
    /// computes. bprop: (operands..., out..., dout...) -> one gradient per argument leaf, which
    /// graph autodiff uses verbatim (PyNative's Note [Custom bprop]); the other operands get no
    /// gradient from the node.
    std::vector<ValueId> addCustomBprop(std::span<const ValueId> operands, std::int64_t arguments,
                                        Graph construct, Graph bprop, NodeIdentity identity = {});
    /// members: elementwise nodes over the fused node's inputs; its outputs are the node's outputs.
    std::vector<ValueId> addFused(std::span<const ValueId> inputs, Graph members,
                                  NodeIdentity identity = {});
    /// A node like `node` (kind, op, attrs, subgraphs, identity) over new inputs.
    std::vector<ValueId> addCopy(const GraphNode& node, std::span<const ValueId> inputs);
    void setOutputs(std::vector<ValueId> outputs);
    void setValueName(ValueId id, std::string name);
    void setBuffer(ValueId id, std::int32_t buffer);
    void setOrigin(NodeId id, NodeId origin);
    void setName(std::string name) { m_name = std::move(name); }

    const std::string& name() const { return m_name; }
    const std::vector<GraphValue>& values() const { return m_values; }
    /// In topological order: a node only uses values defined before it.
    const std::vector<GraphNode>& nodes() const { return m_nodes; }
    const GraphValue& value(ValueId id) const;
    const GraphNode& node(NodeId id) const;
    const std::vector<ValueId>& inputs() const { return m_inputs; }
    const std::vector<ValueId>& outputs() const { return m_outputs; }
    const TensorSpec& spec(ValueId id) const { return value(id).spec; }
    /// For each value, the nodes that use it (in node order; a node using it twice appears twice).
    std::vector<std::vector<NodeId>> users() const;
    /// Nodes here and inside every subgraph.
    std::size_t totalNodeCount() const;

private:
    ValueId newValue(ValueKind kind, TensorSpec spec);
    std::vector<ValueId> newNode(NodeKind kind, const OpDef& op, std::span<const ValueId> inputs,
                                 Attrs attrs, NodeIdentity identity, const SpecList& outputs);
    void checkInputs(std::span<const ValueId> inputs, std::string_view what) const;

    std::string m_name;
    std::vector<GraphValue> m_values;
    std::vector<GraphNode> m_nodes;
    std::vector<ValueId> m_inputs;
    std::vector<ValueId> m_outputs;
};

/// A tensor with the spec's shape and dtype and no values (an empty storage object): what shape
/// rules see at build time and what backward rules see while graph autodiff traces them.
Tensor symbolicTensor(const TensorSpec& spec);
/// Whether t is symbolic: its storage holds fewer bytes than its shape needs.
bool isSymbolic(const Tensor& t);
/// "f32[2, 3]" as the text form writes it.
std::string specToString(const TensorSpec& spec);
/// "f32", "f64", "i32", "i64", "bool".
std::string_view shortDTypeName(DType dtype);
/// How the text form and DOT export name a node's subgraph: "then", "cond", "body", "grad", ...
std::string_view subgraphName(NodeKind kind, std::size_t index);
/// MindSpore's join check between two values that must agree (the branches of an if, a loop
/// variable before and after an iteration): "<subject> differs in dtype. Type Join Failed: ..."
/// (TypeError) or "<subject> differs in shape. Shape Join Failed: ..." (ValueError).
void checkJoinable(const TensorSpec& first, const TensorSpec& second, const std::string& subject);
/// The float inputs of a graph, by position: what a subgraph gradient differentiates.
std::vector<std::size_t> floatInputPositions(const Graph& graph);

} // namespace gradstep
