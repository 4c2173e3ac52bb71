// The graph printer (see Note [Graph text form] in text_format.h). SPDX-License-Identifier: MIT
#include "graph/text_format.h"

#include "tensor/dtype_storage.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <unordered_map>

namespace gradstep {

namespace {

bool isPlainName(const std::string& s, bool allowSlash)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.'
            && !(allowSlash && (c == '/' || c == '-')))
            return false;
    return true;
}

std::string nameToken(const std::string& name, bool allowSlash)
{
    return isPlainName(name, allowSlash) ? name : quotedText(name, '"');
}

std::string constantElement(const Tensor& t, std::int64_t i)
{
    return visitStorageDType(t.dtype(), [&](auto* tag) -> std::string {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T v = static_cast<const T*>(t.rawData())[i];
        if constexpr (std::is_same_v<T, bool>)
            return v ? "true" : "false";
        else if constexpr (kIsIntStorage<T>)
            return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>)
            return printDouble(v);
        else if constexpr (std::is_same_v<T, std::complex<double>>)
            return "(" + printDouble(v.real()) + ", " + printDouble(v.imag()) + ")";
        else if constexpr (kIsComplex<T>)
            return "(" + printFloat(v.real()) + ", " + printFloat(v.imag()) + ")";
        else
            return printFloat(static_cast<float>(v)); // exact for the 16-bit floats too
    });
}

std::string constantLiteral(const Tensor& t)
{
    const std::int64_t n = t.numel();
    if (t.rank() == 0)
        return constantElement(t, 0);
    bool splat = n > 1;
    const std::string first = n > 0 ? constantElement(t, 0) : "";
    for (std::int64_t i = 1; i < n && splat; ++i)
        splat = constantElement(t, i) == first;
    if (splat)
        return "splat " + first;
    std::string s = "[";
    for (std::int64_t i = 0; i < n; ++i)
        s += (i ? ", " : "") + constantElement(t, i);
    return s + "]";
}

// Names every value of the graphs being printed: %name when named, else the next number.
class Printer {
public:
    std::string print(const Graph& graph)
    {
        m_out = "graph @" + nameToken(graph.name(), false);
        body(graph, 0);
        return m_out;
    }

private:
    std::string valueName(const Graph& graph, ValueId id) { return m_names.at(&graph)[id]; }

    void assignName(const Graph& graph, ValueId id)
    {
        auto& names = m_names[&graph];
        if (names.empty())
            names.resize(graph.values().size());
        const std::string& name = graph.value(id).name;
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
            names[id] = "%" + std::to_string(m_counter++);
        else
            names[id] = "%" + nameToken(name, false);
    }

    std::string result(const Graph& graph, ValueId id)
    {
        assignName(graph, id);
        const GraphValue& v = graph.value(id);
        std::string s = valueName(graph, id) + " : " + specToString(v.spec);
        if (v.buffer >= 0)
            s += " (buffer " + std::to_string(v.buffer) + ")";
        return s;
    }

    void signature(const Graph& graph)
    {
        m_out += "(";
        for (std::size_t i = 0; i < graph.inputs().size(); ++i) {
            const ValueId id = graph.inputs()[i];
            m_out += (i ? ", " : "") + result(graph, id);
            if (graph.value(id).kind == ValueKind::Parameter)
                m_out += " param";
        }
        m_out += ")";
    }

    void body(const Graph& graph, int depth)
    {
        const std::string indent(static_cast<std::size_t>(2 * depth + 2), ' ');
        signature(graph);
        m_out += " {\n";
        for (const GraphValue& v : graph.values())
            if (v.kind == ValueKind::Constant)
                m_out += indent + result(graph, v.id) + " = constant " + constantLiteral(v.constant)
                         + "\n";
        for (const GraphNode& node : graph.nodes())
            nodeLine(graph, node, depth);
        m_out += indent + "return";
        for (std::size_t i = 0; i < graph.outputs().size(); ++i)
            m_out += (i ? ", " : " ") + valueName(graph, graph.outputs()[i]);
        m_out += "\n" + std::string(static_cast<std::size_t>(2 * depth), ' ') + "}";
    }

    void nodeLine(const Graph& graph, const GraphNode& node, int depth)
    {
        const std::string indent(static_cast<std::size_t>(2 * depth + 2), ' ');
        std::string line = indent;
        for (std::size_t i = 0; i < node.outputs.size(); ++i)
            line += (i ? ", " : "") + result(graph, node.outputs[i]);
        line += " = " + std::string(node.name()) + "(";
        for (std::size_t i = 0; i < node.inputs.size(); ++i)
            line += (i ? ", " : "") + valueName(graph, node.inputs[i]);
        line += ")";
        if (!node.attrs.empty()) {
            line += " {";
            for (std::size_t i = 0; i < node.attrs.items().size(); ++i) {
                const auto& [name, value] = node.attrs.items()[i];
                line += (i ? ", " : "") + name + "=" + attrValueToString(value, AttrText::Exact);
            }
            line += "}";
        }
        trailer(graph, node, line);
        m_out += line + "\n";
        for (std::size_t i = 0; i < node.subgraphs.size(); ++i) {
            m_out += indent + "  " + std::string(subgraphName(node.kind, i));
            body(*node.subgraphs[i], depth + 2);
            m_out += "\n";
        }
    }

    void trailer(const Graph& graph, const GraphNode& node, std::string& line)
    {
        const NodeIdentity& id = node.identity;
        if (id.phase != Phase::Forward)
            line += std::string(" [") + phaseName(id.phase) + "]";
        if (id.origin != kNoId && id.origin < graph.nodes().size() && id.origin < node.id)
            line += " from " + valueName(graph, graph.node(id.origin).outputs[0]);
        if (!id.scope.empty())
            line += " @" + nameToken(id.scope, true);
        if (id.location.file)
            line += " # " + id.location.toString();
    }

    std::string m_out;
    int m_counter = 0;
    // Keyed by graph address only for lookup while printing; never iterated.
    std::unordered_map<const Graph*, std::vector<std::string>> m_names;
};

} // namespace

std::string printGraph(const Graph& graph) { return Printer().print(graph) + "\n"; }

} // namespace gradstep
