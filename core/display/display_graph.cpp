// DisplayGraph from the debugger's records. Data-flow edges follow TensorIds from producer to
// consumer. Two places need more than ids: a gradient the engine summed before handing it to a
// backward node is an External tensor with no producer, so it is linked to the backward outputs
// that are gradients of the same forward tensor (TensorRecord::gradientOf); and the optimizer
// reads gradients and moments as copies, so its ops are grouped per parameter (a group ends at
// the op that reads the parameter) and each group is fed by the backward node that produced the
// parameter's gradient. SPDX-License-Identifier: MIT
#include "display/display_graph.h"

#include "graph/graph.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace gradstep::display {

namespace {

bool included(const debug::NodeRecord& r, GraphPart part)
{
    switch (part) {
    case GraphPart::Forward: return r.phase == Phase::Forward;
    case GraphPart::Backward: return r.phase == Phase::Backward;
    case GraphPart::TrainStep: return true;
    }
    return true;
}

bool isHalf(DType d) { return d == DType::Float16 || d == DType::BFloat16; }

std::string outputShapes(const debug::NodeRecord& r)
{
    std::string text;
    int shown = 0;
    for (const debug::TensorRecord& t : r.outputs) {
        if (!t.defined)
            continue;
        if (shown == 2) {
            text += ", ...";
            break;
        }
        text += (shown++ ? ", " : "") + shapeAndDType(t.stats.shape, t.stats.dtype);
    }
    return text;
}

std::string shortNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v);
    return buffer;
}

std::string tangentText(const debug::NodeRecord& r)
{
    if (r.outputTangents.empty() || r.outputs.empty() || !r.outputs[0].defined)
        return {};
    const debug::TensorStats& value = r.outputs[0].stats;
    const debug::TensorRecord& tangent = r.outputTangents[0];
    if (value.count == 1)
        return "y " + shortNumber(value.mean) + "  dy " + shortNumber(tangent.defined ? tangent.stats.mean : 0.0);
    return "|y| " + shortNumber(value.l2Norm) + "  |dy| " + shortNumber(tangent.defined ? tangent.stats.l2Norm : 0.0);
}

bool anyHalfOutput(const debug::NodeRecord& r)
{
    return std::any_of(r.outputs.begin(), r.outputs.end(),
                       [](const debug::TensorRecord& t) { return t.defined && isHalf(t.stats.dtype); });
}

/// For each update record, the parameter whose group it belongs to ("" when none follows).
std::vector<std::string> updateGroups(std::span<const debug::RecordPtr> records)
{
    std::vector<std::string> groups(records.size());
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records[i]->phase != Phase::Update)
            continue;
        open.push_back(i);
        for (const debug::TensorRecord& in : records[i]->inputs) {
            if (in.parameter.empty())
                continue;
            for (std::size_t member : open)
                groups[member] = in.parameter;
            open.clear();
            break;
        }
    }
    return groups;
}

class RecordGraphBuilder {
public:
    RecordGraphBuilder(std::span<const debug::RecordPtr> records, const BuildOptions& options)
        : m_records(records), m_options(options), m_groups(updateGroups(records))
    {
    }

    DisplayGraph build()
    {
        for (std::size_t i = 0; i < m_records.size(); ++i)
            if (included(*m_records[i], m_options.part))
                addRecord(i);
        for (DisplayNode& n : m_graph.nodes)
            estimateSize(n);
        return std::move(m_graph);
    }

private:
    std::string clusterPath(std::size_t i) const
    {
        const debug::NodeRecord& r = *m_records[i];
        if (r.phase == Phase::Backward)
            return r.scope.empty() ? "Gradients" : "Gradients/" + r.scope;
        if (r.phase == Phase::Update && !m_groups[i].empty())
            return (r.scope.empty() ? std::string("Update") : r.scope) + "/" + m_groups[i];
        return r.scope;
    }

    /// A Cell called again (LeNet5's one ReLU Cell runs four times) gets a cluster per call:
    /// "LeNet5/relu", "LeNet5/relu#2", ... One cluster holding nodes from far apart in the chain
    /// would make dot fold the whole chain around it.
    std::string callPath(const std::string& raw)
    {
        std::vector<std::string> parts, resolved;
        for (std::size_t start = 0; !raw.empty() && start <= raw.size();) {
            const std::size_t slash = std::min(raw.find('/', start), raw.size());
            parts.push_back(raw.substr(start, slash - start));
            start = slash + 1;
        }
        std::string rawPrefix, path;
        bool same = true;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            rawPrefix += (k ? "/" : "") + parts[k];
            same = same && k < m_lastParts.size() && m_lastParts[k] == parts[k];
            if (same) {
                path = m_lastResolved[k];
            } else {
                const std::size_t call = ++m_calls[rawPrefix];
                path = (k ? path + "/" : "") + parts[k] + (call > 1 ? "#" + std::to_string(call) : "");
            }
            resolved.push_back(path);
        }
        m_lastParts = std::move(parts);
        m_lastResolved = std::move(resolved);
        return path;
    }

    int ensureCluster(const std::string& path, Phase phase)
    {
        if (path.empty())
            return -1;
        if (auto it = m_clusters.find(path); it != m_clusters.end())
            return it->second;
        const std::size_t slash = path.rfind('/');
        const int parent = slash == std::string::npos ? -1 : ensureCluster(path.substr(0, slash), phase);
        DisplayCluster c;
        c.path = path;
        c.title = slash == std::string::npos ? path : path.substr(slash + 1);
        c.title = c.title.substr(0, c.title.find('#'));
        c.parent = parent;
        c.depth = parent < 0 ? rootDepth(path, phase) : m_graph.clusters[static_cast<std::size_t>(parent)].depth + 1;
        c.phase = phase;
        m_graph.clusters.push_back(std::move(c));
        const int index = static_cast<int>(m_graph.clusters.size() - 1);
        m_clusters.emplace(path, index);
        return index;
    }

    std::size_t addNode(DisplayNode node, const std::string& scope)
    {
        node.scope = scope;
        node.cluster = ensureCluster(scope, node.phase);
        m_graph.nodes.push_back(std::move(node));
        return m_graph.nodes.size() - 1;
    }

    void addEdge(std::size_t from, std::size_t to, EdgeKind kind, std::string label = {})
    {
        m_graph.edges.push_back(DisplayEdge{from, to, kind, std::move(label), 1});
    }

    std::size_t sourceNode(const std::string& key, NodeKind kind, Phase phase, std::string title,
                           const debug::TensorRecord& t, const std::string& scope)
    {
        if (auto it = m_sources.find(key); it != m_sources.end())
            return it->second;
        DisplayNode n;
        n.key = key;
        n.kind = kind;
        n.phase = phase;
        n.title = std::move(title);
        n.detail = shapeAndDType(t.stats.shape, t.stats.dtype);
        n.halfPrecision = isHalf(t.stats.dtype);
        const std::size_t index = addNode(std::move(n), scope);
        m_sources.emplace(key, index);
        return index;
    }

    void addRecord(std::size_t i);
    void linkInput(std::size_t i, std::size_t node, std::size_t slot);
    void linkExternalGradient(std::size_t i, std::size_t node, std::size_t slot);
    void linkGradientCopy(std::size_t i, std::size_t node, std::size_t slot);

    std::span<const debug::RecordPtr> m_records;
    BuildOptions m_options;
    std::vector<std::string> m_groups;
    DisplayGraph m_graph;
    std::unordered_map<std::string, int> m_clusters;
    std::unordered_map<std::string, std::size_t> m_sources;
    std::map<std::string, std::size_t> m_occurrences;
    std::unordered_map<debug::TensorId, std::size_t, debug::TensorIdHash> m_producers;
    /// Forward tensor -> the backward nodes that produced (part of) its gradient.
    std::unordered_map<debug::TensorId, std::vector<std::size_t>, debug::TensorIdHash> m_gradients;
    std::unordered_map<std::uint64_t, std::size_t> m_nodeOfRecord;
    std::unordered_map<std::uint64_t, std::size_t> m_recordIndex;
    std::vector<std::pair<std::size_t, std::size_t>> m_parameterGradients; ///< node, output slot
    std::set<std::pair<std::string, std::size_t>> m_linkedCopies;
    std::map<std::string, std::size_t> m_calls;
    std::vector<std::string> m_lastParts, m_lastResolved;
    std::string m_scope; ///< the cluster path of the record being added
};

void RecordGraphBuilder::addRecord(std::size_t i)
{
    const debug::NodeRecord& r = *m_records[i];
    m_recordIndex.emplace(r.seq, i);
    DisplayNode n;
    n.key = recordKey(r, m_occurrences[phaseLetter(r.phase) + r.fullName]++);
    n.kind = NodeKind::Op;
    n.phase = r.phase;
    n.title = r.op;
    n.detail = outputShapes(r);
    n.tangent = tangentText(r);
    n.halfPrecision = anyHalfOutput(r);
    n.records.push_back(r.seq);
    m_scope = callPath(clusterPath(i));
    const std::size_t node = addNode(std::move(n), m_scope);
    m_nodeOfRecord.emplace(r.seq, node);
    for (std::size_t slot = 0; slot < r.inputs.size(); ++slot)
        linkInput(i, node, slot);
    for (std::size_t k = 0; k < r.outputs.size(); ++k) {
        const debug::TensorRecord& out = r.outputs[k];
        m_producers[out.id] = node;
        if (!out.defined || !out.gradientOf)
            continue;
        m_gradients[*out.gradientOf].push_back(node);
        if (out.gradientOf->kind == debug::TensorId::Kind::Parameter)
            m_parameterGradients.emplace_back(node, k);
    }
    if (r.phase == Phase::Backward && r.forwardRecord) {
        if (auto it = m_nodeOfRecord.find(*r.forwardRecord); it != m_nodeOfRecord.end())
            addEdge(node, it->second, EdgeKind::CrossLink);
    }
}

void RecordGraphBuilder::linkInput(std::size_t i, std::size_t node, std::size_t slot)
{
    const debug::NodeRecord& r = *m_records[i];
    const debug::TensorRecord& in = r.inputs[slot];
    if (!in.defined)
        return;
    const std::string shape = in.stats.shape.toString();
    switch (in.id.kind) {
    case debug::TensorId::Kind::Output:
        if (auto it = m_producers.find(in.id); it != m_producers.end())
            addEdge(it->second, node, EdgeKind::Data, shape);
        return;
    case debug::TensorId::Kind::Parameter: {
        if (!m_options.parameters || r.phase == Phase::Backward)
            return;
        const std::string key = std::string("P:") + phaseLetter(r.phase) + ":" + in.id.name;
        addEdge(sourceNode(key, NodeKind::Parameter, r.phase, in.id.name, in, m_scope), node,
                EdgeKind::Data, shape);
        return;
    }
    case debug::TensorId::Kind::External:
        if (r.phase == Phase::Backward) {
            linkExternalGradient(i, node, slot);
            return;
        }
        if (r.phase == Phase::Update) {
            linkGradientCopy(i, node, slot);
            return;
        }
        if (!m_options.inputs)
            return;
        const std::string key = "I:F:" + std::to_string(in.id.node);
        addEdge(sourceNode(key, NodeKind::Input, r.phase, "input", in, {}), node, EdgeKind::Data, shape);
        return;
    }
}

void RecordGraphBuilder::linkExternalGradient(std::size_t i, std::size_t node, std::size_t slot)
{
    const debug::NodeRecord& r = *m_records[i];
    const debug::TensorRecord& in = r.inputs[slot];
    if (r.forwardRecord) {
        auto forward = m_recordIndex.find(*r.forwardRecord);
        const debug::NodeRecord* f = forward == m_recordIndex.end() ? nullptr : m_records[forward->second].get();
        if (f && slot < f->outputs.size()) {
            if (auto it = m_gradients.find(f->outputs[slot].id); it != m_gradients.end()) {
                for (std::size_t producer : it->second)
                    addEdge(producer, node, EdgeKind::Data, in.stats.shape.toString());
                return;
            }
        }
    }
    if (m_options.inputs)
        addEdge(sourceNode("I:B:" + std::to_string(in.id.node), NodeKind::Input, Phase::Backward, "sens", in,
                           {}),
                node, EdgeKind::Data, in.stats.shape.toString());
}

/// The optimizer receives the gradients as copies (External tensors): a copy is recognised by
/// its statistics, which equal those of the backward output it copies. Among equal candidates
/// (two zero gradients of one shape) the gradient of the update group's own parameter wins.
void RecordGraphBuilder::linkGradientCopy(std::size_t i, std::size_t node, std::size_t slot)
{
    const debug::TensorStats& s = m_records[i]->inputs[slot].stats;
    const std::size_t* best = nullptr;
    for (const auto& [producer, output] : m_parameterGradients) {
        const debug::TensorRecord& g = m_records[m_recordIndex.at(m_graph.nodes[producer].records.front())]->outputs[output];
        const debug::TensorStats& t = g.stats;
        const bool same = t.shape == s.shape && t.dtype == s.dtype && t.count == s.count && t.nanCount == s.nanCount
                          && t.min == s.min && t.max == s.max && t.mean == s.mean && t.l2Norm == s.l2Norm;
        if (!same)
            continue;
        if (!best || g.gradientOf->name == m_groups[i])
            best = &producer;
        if (g.gradientOf->name == m_groups[i])
            break;
    }
    // At step 1 a momentum buffer equals the gradient too: one edge per group and gradient.
    if (best && m_linkedCopies.emplace(m_groups[i], *best).second)
        addEdge(*best, node, EdgeKind::Data, s.shape.toString());
}

} // namespace

std::string shapeAndDType(const Shape& shape, DType dtype)
{
    return shape.toString() + " " + std::string(shortDTypeName(dtype));
}

DisplayGraph buildFromRecords(std::span<const debug::RecordPtr> records, const BuildOptions& options)
{
    return RecordGraphBuilder(records, options).build();
}

int rootDepth(const std::string& path, Phase phase)
{
    return phase == Phase::Backward && path == "Gradients" ? -1 : 0;
}

std::optional<debug::TensorId> sourceTensorOfKey(std::string_view key)
{
    if (key.size() < 5 || key[1] != ':' || key[3] != ':')
        return std::nullopt;
    const std::string_view rest = key.substr(4);
    if (key[0] == 'P')
        return debug::TensorId::ofParameter(std::string(rest));
    if (key[0] != 'I')
        return std::nullopt;
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
    if (error != std::errc() || end != rest.data() + rest.size())
        return std::nullopt;
    return debug::TensorId::ofExternal(number);
}

char phaseLetter(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return 'F';
    case Phase::Backward: return 'B';
    case Phase::Update: return 'U';
    }
    return 'F';
}

std::string recordKey(const debug::NodeRecord& record, std::size_t occurrence)
{
    return std::string(1, phaseLetter(record.phase)) + ":" + record.fullName + "#" + std::to_string(occurrence);
}

bool DisplayGraph::holdsAll(std::span<const debug::RecordPtr> records) const
{
    std::set<std::string> keys;
    for (const DisplayNode& n : nodes)
        keys.insert(n.key);
    std::map<std::string, std::size_t> occurrences;
    for (const debug::RecordPtr& r : records)
        if (!keys.count(recordKey(*r, occurrences[phaseLetter(r->phase) + r->fullName]++)))
            return false;
    return true;
}

void DisplayGraph::setStates(std::span<const debug::RecordPtr> executed, const debug::NodeRecord* current)
{
    std::set<std::string> done;
    std::map<std::string, std::size_t> occurrences;
    std::string currentKey;
    for (const debug::RecordPtr& r : executed) {
        const std::string key = recordKey(*r, occurrences[phaseLetter(r->phase) + r->fullName]++);
        if (current && r->seq == current->seq)
            currentKey = key;
        else
            done.insert(key);
    }
    if (current && currentKey.empty())
        currentKey = recordKey(*current, occurrences[phaseLetter(current->phase) + current->fullName]);
    auto stateOf = [&](const std::string& key) {
        if (key == currentKey)
            return NodeState::Current;
        return done.count(key) ? NodeState::Executed : NodeState::Pending;
    };
    for (DisplayNode& n : nodes) {
        if (n.kind == NodeKind::Op) {
            n.state = stateOf(n.key);
        } else if (n.kind == NodeKind::Cell) {
            bool all = true, any = false;
            for (const std::string& member : n.members) {
                const NodeState s = stateOf(member);
                any = any || s == NodeState::Current;
                all = all && s == NodeState::Executed;
            }
            n.state = any ? NodeState::Current : all ? NodeState::Executed : NodeState::Pending;
        }
    }
}

} // namespace gradstep::display
