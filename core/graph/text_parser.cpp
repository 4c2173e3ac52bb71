// The graph text parser: one function per rule of Note [Graph text form] (text_format.h).
// SPDX-License-Identifier: MIT
#include "graph/text_parser.h"

#include "graph/text_cursor.h"
#include "ops/registry.h"
#include "tensor/dtype_storage.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace gradstep {

namespace {

struct Result {
    Token name;
    TensorSpec spec;
    std::int32_t buffer = -1;
};

// One graph being parsed: its value names (text name -> id).
struct Scope {
    Graph& graph;
    std::map<std::string, ValueId> names;
};

class Parser {
public:
    explicit Parser(std::string_view text) : m_in(text) {}

    // graph := 'graph' '@' NAME signature '{' statements '}'
    Graph parseGraph()
    {
        m_in.expectIdent("graph");
        if (m_in.current().kind != TokenKind::At)
            m_in.error("expected '@' and the graph name");
        Graph graph(m_in.take().text);
        parseBody(graph);
        if (m_in.current().kind != TokenKind::End)
            m_in.error("expected the end of the input after the graph");
        return graph;
    }

private:
    // signature '{' (constant | node)* 'return' values '}'
    void parseBody(Graph& graph)
    {
        Scope scope{graph, {}};
        parseSignature(scope);
        m_in.expectPunct('{');
        while (!m_in.isIdent("return"))
            parseStatement(scope);
        m_in.take();
        std::vector<ValueId> outputs;
        if (!m_in.isPunct('}'))
            outputs = parseValues(scope);
        graph.setOutputs(std::move(outputs));
        m_in.expectPunct('}');
    }

    // signature := '(' (VALUE ':' type 'param'? (',' ...)*)? ')'
    void parseSignature(Scope& scope)
    {
        m_in.expectPunct('(');
        while (!m_in.isPunct(')')) {
            if (!scope.graph.inputs().empty())
                m_in.expectPunct(',');
            const Result r = parseResult();
            const bool param = m_in.isIdent("param");
            if (param)
                m_in.take();
            define(scope, r,
                   scope.graph.addInput(r.name.text, r.spec,
                                        param ? ValueKind::Parameter : ValueKind::Argument));
        }
        m_in.take();
    }

    void define(Scope& scope, const Result& r, ValueId id)
    {
        if (!scope.names.emplace(r.name.text, id).second)
            TokenCursor::errorAt(r.name, "value '%" + r.name.text + "' is defined twice");
        const bool numbered = std::isdigit(static_cast<unsigned char>(r.name.text[0]));
        scope.graph.setValueName(id, numbered ? std::string() : r.name.text);
        if (r.buffer >= 0)
            scope.graph.setBuffer(id, r.buffer);
    }

    // result := VALUE ':' type ('(' 'buffer' INT ')')?
    Result parseResult()
    {
        if (m_in.current().kind != TokenKind::Value)
            m_in.error("expected a value name such as '%x', got " + m_in.describe());
        Result r{m_in.take(), {}, -1};
        m_in.expectPunct(':');
        r.spec = m_in.parseType();
        if (m_in.isPunct('(')) {
            m_in.take();
            m_in.expectIdent("buffer");
            r.buffer = static_cast<std::int32_t>(m_in.parseInteger());
            m_in.expectPunct(')');
        }
        return r;
    }

    std::vector<ValueId> parseValues(Scope& scope)
    {
        std::vector<ValueId> ids{parseValueUse(scope)};
        while (m_in.isPunct(',')) {
            m_in.take();
            ids.push_back(parseValueUse(scope));
        }
        return ids;
    }

    ValueId parseValueUse(Scope& scope)
    {
        if (m_in.current().kind != TokenKind::Value)
            m_in.error("expected a value, got " + m_in.describe());
        auto found = scope.names.find(m_in.current().text);
        if (found == scope.names.end())
            m_in.error("value '%" + m_in.current().text + "' is used before it is defined");
        m_in.take();
        return found->second;
    }

    // statement := results '=' ('constant' literal | OP '(' values? ')' trailer block*)
    void parseStatement(Scope& scope)
    {
        std::vector<Result> results{parseResult()};
        while (m_in.isPunct(',')) {
            m_in.take();
            results.push_back(parseResult());
        }
        m_in.expectPunct('=');
        if (m_in.isIdent("constant")) {
            m_in.take();
            if (results.size() != 1)
                TokenCursor::errorAt(results[1].name, "a constant has one result");
            define(scope, results[0], scope.graph.addConstant(parseConstant(results[0])));
            return;
        }
        parseNode(scope, results);
    }

    // One element: a number, or (re, im) for a complex constant.
    std::complex<double> parseElement(bool isComplexType)
    {
        if (!isComplexType)
            return m_in.parseLiteralNumber();
        m_in.expectPunct('(');
        const double re = m_in.parseLiteralNumber();
        m_in.expectPunct(',');
        const double im = m_in.parseLiteralNumber();
        m_in.expectPunct(')');
        return {re, im};
    }

    Tensor parseConstant(const Result& r)
    {
        const bool complexType = isComplex(r.spec.dtype);
        std::vector<std::complex<double>> values;
        const std::int64_t n = r.spec.shape.numel();
        if (m_in.isIdent("splat")) {
            m_in.take();
            values.assign(static_cast<std::size_t>(n), parseElement(complexType));
        } else if (m_in.isPunct('[')) {
            m_in.take();
            while (!m_in.isPunct(']')) {
                if (!values.empty())
                    m_in.expectPunct(',');
                values.push_back(parseElement(complexType));
            }
            m_in.take();
        } else {
            values.push_back(parseElement(complexType));
        }
        if (static_cast<std::int64_t>(values.size()) != n)
            TokenCursor::errorAt(r.name, "constant of type " + specToString(r.spec) + " needs "
                                             + std::to_string(n) + " values, got "
                                             + std::to_string(values.size()));
        if (complexType)
            return convertDType(Tensor::fromVector(r.spec.shape, values), r.spec.dtype);
        std::vector<double> reals(values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            reals[i] = values[i].real();
        return Tensor::fromDoubles(r.spec.shape, reals, r.spec.dtype);
    }

    void parseNode(Scope& scope, const std::vector<Result>& results)
    {
        if (m_in.current().kind != TokenKind::Ident)
            m_in.error("expected an op name, got " + m_in.describe());
        const Token opToken = m_in.take();
        m_in.expectPunct('(');
        std::vector<ValueId> inputs;
        if (!m_in.isPunct(')'))
            inputs = parseValues(scope);
        m_in.expectPunct(')');
        Attrs attrs = m_in.isPunct('{') ? m_in.parseAttrs() : Attrs();
        NodeIdentity identity = parseTrailer(scope);
        std::vector<Graph> blocks;
        while (m_in.isIdent("then") || m_in.isIdent("else") || m_in.isIdent("cond")
               || m_in.isIdent("body") || m_in.isIdent("grad") || m_in.isIdent("fused")
               || m_in.isIdent("construct") || m_in.isIdent("bprop")) {
            blocks.emplace_back(m_in.take().text);
            parseBody(blocks.back());
        }
        const std::vector<ValueId> outs =
            build(scope.graph, opToken, inputs, std::move(attrs), std::move(identity), blocks);
        if (outs.size() != results.size())
            TokenCursor::errorAt(opToken, "'" + opToken.text + "' has "
                                              + std::to_string(outs.size()) + " results, "
                                              + std::to_string(results.size()) + " are named");
        for (std::size_t i = 0; i < outs.size(); ++i) {
            const TensorSpec& inferred = scope.graph.spec(outs[i]);
            if (!(inferred.shape == results[i].spec.shape)
                || inferred.dtype != results[i].spec.dtype)
                TokenCursor::errorAt(results[i].name,
                                     "'%" + results[i].name.text + "' is written as "
                                         + specToString(results[i].spec) + " but '" + opToken.text
                                         + "' gives " + specToString(inferred));
            define(scope, results[i], outs[i]);
        }
    }

    static std::vector<ValueId> build(Graph& graph, const Token& op,
                                      const std::vector<ValueId>& inputs, Attrs attrs,
                                      NodeIdentity identity, std::vector<Graph>& blocks)
    {
        try {
            if (op.text == "If" && blocks.size() == 2 && !inputs.empty())
                return graph.addIf(inputs[0], std::span(inputs).subspan(1), std::move(blocks[0]),
                                   std::move(blocks[1]), std::move(identity));
            if (op.text == "While" && blocks.size() == 2)
                return graph.addWhile(inputs, std::move(blocks[0]), std::move(blocks[1]),
                                      attrs.getInt("max_iterations"), std::move(identity));
            if (op.text == "WhileGrad" && blocks.size() == 3)
                return graph.addWhileGrad(inputs, std::move(blocks[0]), std::move(blocks[1]),
                                          std::move(blocks[2]), attrs.getInt("max_iterations"),
                                          std::move(identity));
            if (op.text == "CustomBprop" && blocks.size() == 2)
                return graph.addCustomBprop(inputs, attrs.getInt("arguments"),
                                            std::move(blocks[0]), std::move(blocks[1]),
                                            std::move(identity));
            if (op.text == "FusedElementwise" && blocks.size() == 1)
                return graph.addFused(inputs, std::move(blocks[0]), std::move(identity));
            const OpDef* def = OpRegistry::instance().find(op.text);
            if (!def)
                TokenCursor::errorAt(op, "unknown op '" + op.text + "'");
            if (!blocks.empty())
                TokenCursor::errorAt(op, "'" + op.text + "' takes no subgraph blocks");
            return graph.addNode(*def, inputs, std::move(attrs), std::move(identity));
        } catch (const TextParseError&) {
            throw;
        } catch (const Error& e) {
            TokenCursor::errorAt(op, e.what());
        }
    }

    // trailer := ('[' PHASE ']')? ('from' VALUE)? ('@' PATH)? ('#' FILE ':' LINE ':' COL)?
    NodeIdentity parseTrailer(Scope& scope)
    {
        NodeIdentity identity;
        if (m_in.isPunct('[')) {
            m_in.take();
            if (m_in.isIdent("backward") || m_in.isIdent("update"))
                identity.phase = m_in.take().text == "backward" ? Phase::Backward : Phase::Update;
            else
                m_in.error("expected 'backward' or 'update', got " + m_in.describe());
            m_in.expectPunct(']');
        }
        if (m_in.isIdent("from")) {
            m_in.take();
            const Token at = m_in.current();
            const GraphValue& v = scope.graph.value(parseValueUse(scope));
            if (v.kind != ValueKind::NodeOutput)
                TokenCursor::errorAt(at, "'from' names a value produced by a node");
            identity.origin = v.node;
        }
        if (m_in.current().kind == TokenKind::At)
            identity.scope = m_in.take().text;
        if (m_in.current().kind == TokenKind::Location)
            identity.location = m_in.parseLocation(m_in.take());
        return identity;
    }

    TokenCursor m_in;
};

} // namespace

Graph parseGraph(std::string_view text, std::string_view sourceName)
{
    try {
        return Parser(text).parseGraph();
    } catch (const TextParseError& e) {
        throw TextParseError(std::string(sourceName) + ":" + e.what(), e.line(), e.column());
    }
}

} // namespace gradstep
