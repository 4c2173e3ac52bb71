// elementwise_fusion: groups connected elementwise nodes of one shape and float type into
// FusedElementwise nodes (core/graph/fused_kernel.h), which keep their members as a subgraph.
// SPDX-License-Identifier: MIT
#include "graph/fused_kernel.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

#include <algorithm>
#include <queue>
#include <set>

namespace gradstep {

namespace {

// The float type a fusible node computes in, or Bool when it cannot join any group.
DType computeType(const Graph& g, const GraphNode& node)
{
    if (node.kind != NodeKind::Op || !isFusibleOp(*node.op) || node.outputs.size() != 1)
        return DType::Bool;
    const DType out = g.spec(node.outputs[0]).dtype;
    // Only comparisons among the fusible ops give Bool; they compute in their operands' type.
    const DType t = out == DType::Bool ? g.spec(node.inputs[0]).dtype : out;
    // Float16/BFloat16 round after every op; a fused group would round once.
    if (!isFloating(t) || !isComputeDType(t))
        return DType::Bool;
    const Shape& shape = g.spec(node.outputs[0]).shape;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const TensorSpec& in = g.spec(node.inputs[i]);
        const bool condition = i < 64 && ((node.op->conditionInputs >> i) & 1u) != 0;
        if (in.dtype != (condition ? DType::Bool : t) || !isFusibleOperandShape(in.shape, shape))
            return DType::Bool;
    }
    return t;
}

struct Grouping {
    std::vector<int> groupOf;                ///< per node, -1 when not grouped
    std::vector<std::vector<NodeId>> groups; ///< members in node order
};

// Greedy grouping in topological order. A node joins a producer's group unless another input
// reaches that group through a node outside it (the group would then depend on itself). A group
// is emitted as one unit, so it depends on whatever any of its members depends on, also on what
// members that joined later depend on: reaching is followed through the groups' dependencies.
class Grouper {
public:
    explicit Grouper(const Graph& g)
        : m_g(g), m_result{std::vector<int>(g.nodes().size(), -1), {}}, m_reaches(g.nodes().size()),
          m_types(g.nodes().size())
    {
    }

    Grouping run()
    {
        for (const GraphNode& node : m_g.nodes()) {
            m_types[node.id] = computeType(m_g, node);
            const std::vector<int> candidates = candidateGroups(node);
            if (m_types[node.id] == DType::Bool)
                continue;
            auto chosen = std::find_if(candidates.begin(), candidates.end(),
                                       [&](int group) { return safe(node, group); });
            const int group =
                chosen != candidates.end() ? *chosen : static_cast<int>(m_result.groups.size());
            if (chosen == candidates.end())
                m_result.groups.emplace_back();
            m_result.groupOf[node.id] = group;
            m_result.groups[static_cast<std::size_t>(group)].push_back(node.id);
            if (m_groupDeps.size() <= static_cast<std::size_t>(group))
                m_groupDeps.resize(static_cast<std::size_t>(group) + 1);
            for (int dep : m_reaches[node.id])
                if (dep != group)
                    m_groupDeps[static_cast<std::size_t>(group)].insert(dep);
        }
        return std::move(m_result);
    }

private:
    // Records the groups the node depends on; returns its producers' groups it could join.
    std::vector<int> candidateGroups(const GraphNode& node)
    {
        std::vector<int> candidates;
        std::set<int>& deps = m_reaches[node.id];
        for (ValueId in : node.inputs) {
            const GraphValue& v = m_g.value(in);
            if (v.kind != ValueKind::NodeOutput)
                continue;
            deps.insert(m_reaches[v.node].begin(), m_reaches[v.node].end());
            const int group = m_result.groupOf[v.node];
            if (group < 0)
                continue;
            deps.insert(group);
            const NodeId leader = m_result.groups[static_cast<std::size_t>(group)][0];
            if (m_types[leader] == m_types[node.id]
                && m_g.spec(m_g.node(leader).outputs[0]).shape == m_g.spec(node.outputs[0]).shape)
                candidates.push_back(group);
        }
        return candidates;
    }

    bool safe(const GraphNode& node, int group) const
    {
        for (ValueId in : node.inputs) {
            const GraphValue& v = m_g.value(in);
            if (v.kind == ValueKind::NodeOutput && m_result.groupOf[v.node] != group && reaches(v.node, group))
                return false;
        }
        return true;
    }

    // Whether the unit of `producer` (its group, or itself) depends on `group`.
    bool reaches(NodeId producer, int group) const
    {
        std::vector<int> todo(m_reaches[producer].begin(), m_reaches[producer].end());
        if (m_result.groupOf[producer] >= 0)
            todo.push_back(m_result.groupOf[producer]);
        std::set<int> seen;
        while (!todo.empty()) {
            const int g = todo.back();
            todo.pop_back();
            if (g == group)
                return true;
            if (!seen.insert(g).second || static_cast<std::size_t>(g) >= m_groupDeps.size())
                continue;
            todo.insert(todo.end(), m_groupDeps[static_cast<std::size_t>(g)].begin(),
                        m_groupDeps[static_cast<std::size_t>(g)].end());
        }
        return false;
    }

    const Graph& m_g;
    Grouping m_result;
    std::vector<std::set<int>> m_reaches; ///< per node: the groups it depends on
    std::vector<std::set<int>> m_groupDeps; ///< per group: the other groups its members depend on
    std::vector<DType> m_types;           ///< per node: its compute type, Bool when not fusible
};

// The common leading part of the members' scope paths ("Net/fc1" and "Net/fc2" give "Net").
std::string commonScope(const Graph& g, const std::vector<NodeId>& members)
{
    std::string scope = g.node(members[0]).identity.scope;
    for (NodeId m : members) {
        const std::string& s = g.node(m).identity.scope;
        std::size_t n = 0;
        while (n < scope.size() && n < s.size() && scope[n] == s[n])
            ++n;
        if (n < scope.size() && !(n == s.size() && scope[n] == '/'))
            n = scope.rfind('/', n) == std::string::npos ? 0 : scope.rfind('/', n);
        scope.resize(n);
    }
    return scope;
}

class FusionEmitter {
public:
    FusionEmitter(const Graph& source, const Grouping& grouping)
        : m_source(source), m_grouping(grouping), m_rewriter(source), m_users(source.users())
    {
        for (ValueId out : source.outputs())
            m_isOutput.insert(out);
    }

    // Emits units (lone nodes, groups) in a topological order that keeps the original order
    // where it can: a min-heap keyed by each unit's last member.
    Graph emit()
    {
        const std::size_t n = m_source.nodes().size();
        std::vector<int> pending(n, 0);
        std::vector<std::vector<NodeId>> dependents(n);
        for (const GraphNode& node : m_source.nodes()) {
            if (unitOf(node.id) != node.id)
                continue;
            std::set<NodeId> producers;
            for (NodeId member : membersOf(node.id))
                for (ValueId in : m_source.node(member).inputs) {
                    const GraphValue& v = m_source.value(in);
                    if (v.kind == ValueKind::NodeOutput && unitOf(v.node) != unitOf(node.id))
                        producers.insert(unitOf(v.node));
                }
            pending[node.id] = static_cast<int>(producers.size());
            for (NodeId p : producers)
                dependents[p].push_back(node.id);
        }
        std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
        for (const GraphNode& node : m_source.nodes())
            if (unitOf(node.id) == node.id && pending[node.id] == 0)
                ready.push(node.id);
        while (!ready.empty()) {
            const NodeId unit = ready.top();
            ready.pop();
            emitUnit(unit);
            for (NodeId d : dependents[unit])
                if (--pending[d] == 0)
                    ready.push(d);
        }
        return m_rewriter.finish();
    }

    std::int64_t fusedNodes = 0, fusedGroups = 0;

private:
    // A unit is named by its last member (lone nodes by themselves).
    NodeId unitOf(NodeId node) const
    {
        const int group = m_grouping.groupOf[node];
        if (group < 0 || m_grouping.groups[static_cast<std::size_t>(group)].size() < 2)
            return node;
        return m_grouping.groups[static_cast<std::size_t>(group)].back();
    }
    std::vector<NodeId> membersOf(NodeId unit) const
    {
        const int group = m_grouping.groupOf[unit];
        if (unitOf(unit) != unit || group < 0)
            return {unit};
        return m_grouping.groups[static_cast<std::size_t>(group)];
    }

    void emitUnit(NodeId unit)
    {
        const std::vector<NodeId> members = membersOf(unit);
        if (members.size() == 1) {
            m_rewriter.copy(m_source.node(unit));
            return;
        }
        emitGroup(members);
        fusedNodes += static_cast<std::int64_t>(members.size());
        ++fusedGroups;
    }

    void emitGroup(const std::vector<NodeId>& members);

    const Graph& m_source;
    const Grouping& m_grouping;
    GraphRewriter m_rewriter;
    std::vector<std::vector<NodeId>> m_users;
    std::set<ValueId> m_isOutput;
};

void FusionEmitter::emitGroup(const std::vector<NodeId>& members)
{
    const std::set<NodeId> inGroup(members.begin(), members.end());
    Graph sub("fused");
    std::vector<ValueId> map(m_source.values().size(), kNoId);
    std::vector<ValueId> externals;
    std::vector<ValueId> outputs;
    for (NodeId id : members) {
        const GraphNode& node = m_source.node(id);
        std::vector<ValueId> inputs;
        for (ValueId in : node.inputs) {
            if (map[in] == kNoId) {
                const GraphValue& v = m_source.value(in);
                map[in] = v.kind == ValueKind::Constant ? sub.addConstant(v.constant)
                                                        : sub.addInput("", v.spec);
                if (v.kind != ValueKind::Constant)
                    externals.push_back(m_rewriter.map(in));
            }
            inputs.push_back(map[in]);
        }
        NodeIdentity identity = node.identity;
        identity.origin = kNoId; // origins name nodes of the outer graph
        map[node.outputs[0]] = sub.addNode(*node.op, inputs, node.attrs, std::move(identity))[0];
        bool external = m_isOutput.count(node.outputs[0]) > 0;
        for (NodeId user : m_users[node.outputs[0]])
            external = external || !inGroup.count(user);
        if (external)
            outputs.push_back(node.outputs[0]);
    }
    std::vector<ValueId> subOutputs;
    for (ValueId out : outputs)
        subOutputs.push_back(map[out]);
    sub.setOutputs(std::move(subOutputs));
    NodeIdentity identity = m_source.node(members[0]).identity;
    identity.scope = commonScope(m_source, members);
    identity.origin = kNoId;
    const std::vector<ValueId> fused =
        m_rewriter.graph().addFused(externals, std::move(sub), identity);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        m_rewriter.replace(outputs[i], fused[i]);
}

PassResult runElementwiseFusion(const Graph& graph)
{
    const Grouping grouping = Grouper(graph).run();
    FusionEmitter emitter(graph, grouping);
    PassResult r{emitter.emit(), emitter.fusedGroups > 0, "", {}};
    r.summary = r.changed ? "fused " + countNoun(emitter.fusedNodes, "node") + " into "
                                + countNoun(emitter.fusedGroups, "kernel")
                          : "nothing to fuse";
    r.stats = {{"fused_nodes", emitter.fusedNodes}, {"kernels", emitter.fusedGroups}};
    return r;
}

} // namespace

const PassInfo kElementwiseFusionPass{
    "elementwise_fusion",
    "Elementwise fusion: chains of elementwise ops become one kernel with one loop",
    "Groups connected elementwise nodes (arithmetic, activations, comparisons, select) that "
    "compute "
    "in one float type over one output shape into a FusedElementwise node. Its kernel runs a short "
    "instruction list over blocks of elements, so intermediates never reach memory; members used "
    "outside the group become the node's outputs, and the members stay in the node as a subgraph "
    "a view can expand. Operands must have the output's shape or repeat along its leading axes "
    "(a bias, a scalar). It does not fuse across shapes (reductions, broadcasts to new leading "
    "shapes), casts, integer arithmetic, ops without a fused instruction (pow, gelu, clip), or "
    "across a subgraph's boundary (a pipeline runs it inside each body), and it never duplicates a "
    "node.",
    {"dce"},
    runElementwiseFusion};

} // namespace gradstep
