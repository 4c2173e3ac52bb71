// DOT export (see dot_export.h). Everything is emitted in id order and scope trees are keyed by
// name, so the same graph always gives the same text. SPDX-License-Identifier: MIT
#include "graph/dot_export.h"

#include "graph/text_format.h"

#include <map>

namespace gradstep {

namespace {

constexpr const char* kFontName = "DejaVu Sans";
constexpr const char* kForwardFill = "#dbe9f6";
constexpr const char* kBackwardFill = "#f9dcc4";
constexpr const char* kUpdateFill = "#d9ead3";
constexpr const char* kArgumentFill = "#eeeeee";
constexpr const char* kParameterFill = "#fff2cc";
constexpr const char* kConstantColor = "#808080";
constexpr const char* kClusterColor = "#a0a0a0";
constexpr const char* kSubgraphColor = "#606060";

const char* phaseFill(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return kForwardFill;
    case Phase::Backward: return kBackwardFill;
    case Phase::Update: return kUpdateFill;
    }
    return kForwardFill;
}

struct ScopeTree {
    std::map<std::string, ScopeTree> children; // keyed by name: deterministic order
    std::vector<NodeId> nodes;
};

void insert(ScopeTree& root, const std::string& scope, NodeId node)
{
    ScopeTree* at = &root;
    std::size_t start = 0;
    while (start < scope.size()) {
        std::size_t end = scope.find('/', start);
        if (end == std::string::npos)
            end = scope.size();
        at = &at->children[scope.substr(start, end - start)];
        start = end + 1;
    }
    at->nodes.push_back(node);
}

class DotWriter {
public:
    explicit DotWriter(const DotOptions& options) : m_options(options) {}

    std::string write(const Graph& graph)
    {
        m_out = "digraph " + dotQuoted(graph.name()) + " {\n";
        m_out += "  graph [rankdir=TB, compound=true, fontname=" + dotQuoted(kFontName)
                 + ", fontsize=10];\n";
        m_out += "  node [shape=box, style=\"rounded,filled\", fontname=" + dotQuoted(kFontName)
                 + ", fontsize=10];\n";
        m_out += "  edge [fontname=" + dotQuoted(kFontName) + ", fontsize=8];\n";
        body(graph, "", 1);
        for (const std::string& edge : m_edges)
            m_out += "  " + edge + ";\n";
        return m_out + "}\n";
    }

private:
    std::string label(std::string text) const
    {
        if (text.size() > m_options.maxLabelLength)
            text = text.substr(0, m_options.maxLabelLength - 3) + "...";
        return text;
    }

    static std::string indent(int depth)
    {
        return std::string(static_cast<std::size_t>(2 * depth), ' ');
    }

    std::string endpoint(const Graph& g, const std::string& prefix, ValueId v) const
    {
        const GraphValue& value = g.value(v);
        switch (value.kind) {
        case ValueKind::Argument:
        case ValueKind::Parameter: return prefix + "a" + std::to_string(value.index);
        case ValueKind::Constant:
            return m_options.showConstants ? prefix + "c" + std::to_string(v) : "";
        case ValueKind::NodeOutput: break;
        }
        return prefix + "n" + std::to_string(value.node);
    }

    void edge(const Graph& g, const std::string& prefix, ValueId from, const std::string& to,
              std::string attrs = "")
    {
        const std::string tail = endpoint(g, prefix, from);
        if (tail.empty())
            return;
        const GraphValue& v = g.value(from);
        if (v.kind == ValueKind::NodeOutput && g.node(v.node).outputs.size() > 1)
            attrs += std::string(attrs.empty() ? "" : ", ")
                     + "label=" + dotQuoted("#" + std::to_string(v.index));
        m_edges.push_back(tail + " -> " + to + (attrs.empty() ? "" : " [" + attrs + "]"));
    }

    void body(const Graph& g, const std::string& prefix, int depth)
    {
        for (ValueId in : g.inputs()) {
            const GraphValue& v = g.value(in);
            const bool param = v.kind == ValueKind::Parameter;
            m_out += indent(depth) + prefix + "a" + std::to_string(v.index)
                     + " [shape=ellipse, fillcolor=" + (param ? kParameterFill : kArgumentFill)
                     + ", label="
                     + dotQuoted(label(v.name.empty() ? "input " + std::to_string(v.index) : v.name)
                                 + "\n" + label(specToString(v.spec)))
                     + "];\n";
        }
        if (m_options.showConstants)
            for (const GraphValue& v : g.values())
                if (v.kind == ValueKind::Constant)
                    m_out += indent(depth) + prefix + "c" + std::to_string(v.id)
                             + " [shape=plaintext, style=\"\", fontcolor=\"" + kConstantColor
                             + "\", label=" + dotQuoted(label(constantLabel(v))) + "];\n";
        ScopeTree scopes;
        for (const GraphNode& node : g.nodes())
            insert(scopes, node.identity.scope, node.id);
        cluster(g, prefix, scopes, depth);
        m_out += indent(depth) + prefix + "out [shape=plaintext, style=\"\", label=\"return\"];\n";
        for (std::size_t i = 0; i < g.outputs().size(); ++i)
            edge(g, prefix, g.outputs()[i], prefix + "out",
                 g.outputs().size() > 1 ? "headlabel=" + dotQuoted(std::to_string(i)) : "");
    }

    static std::string constantLabel(const GraphValue& v)
    {
        if (v.constant.numel() == 1)
            return v.constant.dtype() == DType::Float64 ? printDouble(v.constant.at(0))
                                                        : printGraphScalar(v.constant);
        return "const " + specToString(v.spec);
    }

    static std::string printGraphScalar(const Tensor& t)
    {
        if (t.dtype() == DType::Float32)
            return printFloat(static_cast<float>(t.at(0)));
        if (t.dtype() == DType::Bool)
            return t.at(0) != 0 ? "true" : "false";
        return std::to_string(static_cast<std::int64_t>(t.at(0)));
    }

    void cluster(const Graph& g, const std::string& prefix, const ScopeTree& tree, int depth)
    {
        for (NodeId id : tree.nodes)
            node(g, prefix, g.node(id), depth);
        for (const auto& [name, child] : tree.children) {
            m_out += indent(depth) + "subgraph cluster_" + std::to_string(m_clusters++) + " {\n";
            m_out += indent(depth + 1) + "label=" + dotQuoted(label(name)) + "; color=\""
                     + kClusterColor + "\"; style=rounded;\n";
            cluster(g, prefix, child, depth + 1);
            m_out += indent(depth) + "}\n";
        }
    }

    std::string nodeStatement(const Graph& g, const std::string& id, const GraphNode& n) const
    {
        std::string types;
        for (std::size_t i = 0; i < n.outputs.size() && i < 2; ++i)
            types += (i ? ", " : "") + specToString(g.spec(n.outputs[i]));
        if (n.outputs.size() > 2)
            types += ", ...";
        std::string tooltip = n.label() + (n.attrs.empty() ? "" : " " + n.attrs.toString());
        if (n.identity.location.file)
            tooltip += " at " + n.identity.location.toString();
        return id + " [fillcolor=\"" + phaseFill(n.identity.phase)
               + "\", label=" + dotQuoted(label(std::string(n.name())) + "\n" + label(types))
               + ", tooltip=" + dotQuoted(tooltip) + "]";
    }

    void node(const Graph& g, const std::string& prefix, const GraphNode& n, int depth);

    const DotOptions& m_options;
    std::string m_out;
    std::vector<std::string> m_edges;
    int m_clusters = 0;
};

// An expanded node is a cluster holding one cluster per subgraph (its inputs fed by the node's
// operands, its return feeding the node) and the node itself, which its users connect to.
void DotWriter::node(const Graph& g, const std::string& prefix, const GraphNode& n, int depth)
{
    const std::string id = prefix + "n" + std::to_string(n.id);
    if (n.subgraphs.empty() || !m_options.expandSubgraphs) {
        m_out += indent(depth) + nodeStatement(g, id, n) + ";\n";
        for (ValueId in : n.inputs)
            edge(g, prefix, in, id);
        return;
    }
    const std::size_t skip = n.kind == NodeKind::If ? 1 : 0;
    m_out += indent(depth) + "subgraph cluster_" + std::to_string(m_clusters++) + " {\n";
    m_out += indent(depth + 1) + "label=" + dotQuoted(label(std::string(n.name()))) + "; color=\""
             + kSubgraphColor + "\"; style=\"rounded,dashed\";\n";
    for (std::size_t k = 0; k < n.subgraphs.size(); ++k) {
        const Graph& sub = *n.subgraphs[k];
        const std::string subPrefix = id + "_" + std::to_string(k) + "_";
        m_out += indent(depth + 1) + "subgraph cluster_" + std::to_string(m_clusters++) + " {\n";
        m_out += indent(depth + 2) + "label=" + dotQuoted(subgraphName(n.kind, k)) + "; color=\""
                 + kClusterColor + "\";\n";
        body(sub, subPrefix, depth + 2);
        m_out += indent(depth + 1) + "}\n";
        for (std::size_t i = 0; i < sub.inputs().size() && skip + i < n.inputs.size(); ++i)
            edge(g, prefix, n.inputs[skip + i], subPrefix + "a" + std::to_string(i),
                 "style=dashed");
        m_edges.push_back(subPrefix + "out -> " + id + " [style=dashed]");
    }
    m_out += indent(depth + 1) + nodeStatement(g, id, n) + ";\n";
    m_out += indent(depth) + "}\n";
    if (skip)
        edge(g, prefix, n.inputs[0], id);
}

} // namespace

std::string exportDot(const Graph& graph, const DotOptions& options)
{
    return DotWriter(options).write(graph);
}

std::string dotQuoted(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out + "\"";
}

} // namespace gradstep
