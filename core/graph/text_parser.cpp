// The graph text parser: one function per rule of Note [Graph text form] (text_format.h).
// SPDX-License-Identifier: MIT
#include "graph/text_parser.h"

#include "graph/text_lexer.h"
#include "ops/registry.h"

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
    explicit Parser(std::string_view text) : m_lexer(text) { m_token = m_lexer.next(); }

    // graph := 'graph' '@' NAME signature '{' statements '}'
    Graph parseGraph()
    {
        expectIdent("graph");
        if (m_token.kind != TokenKind::At)
            error("expected '@' and the graph name");
        Graph graph(take().text);
        parseBody(graph);
        if (m_token.kind != TokenKind::End)
            error("expected the end of the input after the graph");
        return graph;
    }

private:
    [[noreturn]] void error(const std::string& message) const { errorAt(m_token, message); }
    [[noreturn]] static void errorAt(const Token& t, const std::string& message)
    {
        throwParseError(message, t.line, t.column);
    }
    std::string describe() const
    {
        switch (m_token.kind) {
        case TokenKind::End: return "the end of the input";
        case TokenKind::Value: return "'%" + m_token.text + "'";
        case TokenKind::At: return "'@" + m_token.text + "'";
        case TokenKind::Location: return "a location";
        default: return "'" + m_token.text + "'";
        }
    }
    Token take()
    {
        Token t = m_token;
        m_token = m_lexer.next();
        return t;
    }
    bool isPunct(char c) const { return m_token.kind == TokenKind::Punct && m_token.text[0] == c; }
    bool isIdent(std::string_view s) const { return m_token.kind == TokenKind::Ident && m_token.text == s; }
    void expectPunct(char c)
    {
        if (!isPunct(c))
            error(std::string("expected '") + c + "', got " + describe());
        take();
    }
    void expectIdent(std::string_view s)
    {
        if (!isIdent(s))
            error("expected '" + std::string(s) + "', got " + describe());
        take();
    }

    // signature '{' (constant | node)* 'return' values '}'
    void parseBody(Graph& graph)
    {
        Scope scope{graph, {}};
        parseSignature(scope);
        expectPunct('{');
        while (!isIdent("return"))
            parseStatement(scope);
        take();
        std::vector<ValueId> outputs;
        if (!isPunct('}'))
            outputs = parseValues(scope);
        graph.setOutputs(std::move(outputs));
        expectPunct('}');
    }

    // signature := '(' (VALUE ':' type 'param'? (',' ...)*)? ')'
    void parseSignature(Scope& scope)
    {
        expectPunct('(');
        while (!isPunct(')')) {
            if (!scope.graph.inputs().empty())
                expectPunct(',');
            const Result r = parseResult();
            const bool param = isIdent("param");
            if (param)
                take();
            define(scope, r, scope.graph.addInput(r.name.text, r.spec, param ? ValueKind::Parameter : ValueKind::Argument));
        }
        take();
    }

    void define(Scope& scope, const Result& r, ValueId id)
    {
        if (!scope.names.emplace(r.name.text, id).second)
            errorAt(r.name, "value '%" + r.name.text + "' is defined twice");
        const bool numbered = std::isdigit(static_cast<unsigned char>(r.name.text[0]));
        scope.graph.setValueName(id, numbered ? std::string() : r.name.text);
        if (r.buffer >= 0)
            scope.graph.setBuffer(id, r.buffer);
    }

    // result := VALUE ':' type ('(' 'buffer' INT ')')?
    Result parseResult()
    {
        if (m_token.kind != TokenKind::Value)
            error("expected a value name such as '%x', got " + describe());
        Result r{take(), {}, -1};
        expectPunct(':');
        r.spec = parseType();
        if (isPunct('(')) {
            take();
            expectIdent("buffer");
            r.buffer = static_cast<std::int32_t>(parseInteger());
            expectPunct(')');
        }
        return r;
    }

    // type := ('f32' | 'f64' | 'i32' | 'i64' | 'bool') '[' (INT (',' INT)*)? ']'
    TensorSpec parseType()
    {
        static const std::pair<const char*, DType> dtypes[] = {{"f32", DType::Float32}, {"f64", DType::Float64},
            {"i32", DType::Int32}, {"i64", DType::Int64}, {"bool", DType::Bool}};
        TensorSpec spec;
        bool found = false;
        for (const auto& [name, dtype] : dtypes)
            if (isIdent(name)) {
                spec.dtype = dtype;
                found = true;
            }
        if (!found)
            error("expected a type such as 'f32[2, 3]', got " + describe());
        take();
        expectPunct('[');
        std::vector<std::int64_t> dims;
        while (!isPunct(']')) {
            if (!dims.empty())
                expectPunct(',');
            dims.push_back(parseInteger());
        }
        take();
        if (dims.size() > static_cast<std::size_t>(Shape::kMaxRank))
            error("a shape has at most " + std::to_string(Shape::kMaxRank) + " dimensions");
        spec.shape = Shape(dims);
        return spec;
    }

    std::int64_t parseInteger()
    {
        if (m_token.kind != TokenKind::Number)
            error("expected an integer, got " + describe());
        char* end = nullptr;
        const long long v = std::strtoll(m_token.text.c_str(), &end, 10);
        if (*end != '\0')
            error("expected an integer, got " + describe());
        take();
        return v;
    }

    double parseNumber()
    {
        const Token t = take();
        const bool negative = !t.text.empty() && t.text[0] == '-';
        const std::string body = negative ? t.text.substr(1) : t.text;
        if (body == "inf" || body == "nan") {
            const double v = body == "inf" ? INFINITY : NAN;
            return negative ? -v : v;
        }
        char* end = nullptr;
        const double v = std::strtod(t.text.c_str(), &end);
        if (t.kind != TokenKind::Number || *end != '\0')
            errorAt(t, "expected a number, got '" + t.text + "'");
        return v;
    }

    std::vector<ValueId> parseValues(Scope& scope)
    {
        std::vector<ValueId> ids{parseValueUse(scope)};
        while (isPunct(',')) {
            take();
            ids.push_back(parseValueUse(scope));
        }
        return ids;
    }

    ValueId parseValueUse(Scope& scope)
    {
        if (m_token.kind != TokenKind::Value)
            error("expected a value, got " + describe());
        auto found = scope.names.find(m_token.text);
        if (found == scope.names.end())
            error("value '%" + m_token.text + "' is used before it is defined");
        take();
        return found->second;
    }

    // statement := results '=' ('constant' literal | OP '(' values? ')' trailer block*)
    void parseStatement(Scope& scope)
    {
        std::vector<Result> results{parseResult()};
        while (isPunct(',')) {
            take();
            results.push_back(parseResult());
        }
        expectPunct('=');
        if (isIdent("constant")) {
            take();
            if (results.size() != 1)
                errorAt(results[1].name, "a constant has one result");
            define(scope, results[0], scope.graph.addConstant(parseConstant(results[0])));
            return;
        }
        parseNode(scope, results);
    }

    Tensor parseConstant(const Result& r)
    {
        std::vector<double> values;
        const std::int64_t n = r.spec.shape.numel();
        if (isIdent("splat")) {
            take();
            values.assign(static_cast<std::size_t>(n), parseLiteralNumber());
        } else if (isPunct('[')) {
            take();
            while (!isPunct(']')) {
                if (!values.empty())
                    expectPunct(',');
                values.push_back(parseLiteralNumber());
            }
            take();
        } else {
            values.push_back(parseLiteralNumber());
        }
        if (static_cast<std::int64_t>(values.size()) != n)
            errorAt(r.name, "constant of type " + specToString(r.spec) + " needs " + std::to_string(n)
                                + " values, got " + std::to_string(values.size()));
        return Tensor::fromDoubles(r.spec.shape, values, r.spec.dtype);
    }

    double parseLiteralNumber()
    {
        if (isIdent("true") || isIdent("false"))
            return take().text == "true" ? 1.0 : 0.0;
        if (isIdent("inf") || isIdent("nan"))
            return take().text == "inf" ? INFINITY : NAN;
        if (m_token.kind != TokenKind::Number)
            error("expected a number, got " + describe());
        return parseNumber();
    }

    void parseNode(Scope& scope, const std::vector<Result>& results)
    {
        if (m_token.kind != TokenKind::Ident)
            error("expected an op name, got " + describe());
        const Token opToken = take();
        expectPunct('(');
        std::vector<ValueId> inputs;
        if (!isPunct(')'))
            inputs = parseValues(scope);
        expectPunct(')');
        Attrs attrs = isPunct('{') ? parseAttrs() : Attrs();
        NodeIdentity identity = parseTrailer(scope);
        std::vector<Graph> blocks;
        while (isIdent("then") || isIdent("else") || isIdent("cond") || isIdent("body") || isIdent("fused")) {
            blocks.emplace_back(take().text);
            parseBody(blocks.back());
        }
        const std::vector<ValueId> outs = build(scope.graph, opToken, inputs, std::move(attrs), std::move(identity), blocks);
        if (outs.size() != results.size())
            errorAt(opToken, "'" + opToken.text + "' has " + std::to_string(outs.size()) + " results, "
                                 + std::to_string(results.size()) + " are named");
        for (std::size_t i = 0; i < outs.size(); ++i) {
            const TensorSpec& inferred = scope.graph.spec(outs[i]);
            if (!(inferred.shape == results[i].spec.shape) || inferred.dtype != results[i].spec.dtype)
                errorAt(results[i].name, "'%" + results[i].name.text + "' is written as " + specToString(results[i].spec)
                                             + " but '" + opToken.text + "' gives " + specToString(inferred));
            define(scope, results[i], outs[i]);
        }
    }

    static std::vector<ValueId> build(Graph& graph, const Token& op, const std::vector<ValueId>& inputs, Attrs attrs,
                                      NodeIdentity identity, std::vector<Graph>& blocks)
    {
        try {
            if (op.text == "If" && blocks.size() == 2 && !inputs.empty())
                return graph.addIf(inputs[0], std::span(inputs).subspan(1), std::move(blocks[0]), std::move(blocks[1]),
                                   std::move(identity));
            if (op.text == "While" && blocks.size() == 2)
                return graph.addWhile(inputs, std::move(blocks[0]), std::move(blocks[1]),
                                      attrs.getInt("max_iterations"), std::move(identity));
            if (op.text == "FusedElementwise" && blocks.size() == 1)
                return graph.addFused(inputs, std::move(blocks[0]), std::move(identity));
            const OpDef* def = OpRegistry::instance().find(op.text);
            if (!def)
                errorAt(op, "unknown op '" + op.text + "'");
            if (!blocks.empty())
                errorAt(op, "'" + op.text + "' takes no subgraph blocks");
            return graph.addNode(*def, inputs, std::move(attrs), std::move(identity));
        } catch (const TextParseError&) {
            throw;
        } catch (const Error& e) {
            errorAt(op, e.what());
        }
    }

    // attrs := '{' NAME '=' attr (',' NAME '=' attr)* '}'
    Attrs parseAttrs()
    {
        take();
        Attrs attrs;
        while (!isPunct('}')) {
            if (!attrs.empty())
                expectPunct(',');
            if (m_token.kind != TokenKind::Ident)
                error("expected an attribute name, got " + describe());
            const std::string name = take().text;
            expectPunct('=');
            attrs.set(name, parseAttrValue());
        }
        take();
        return attrs;
    }

    // attr := INT | FLOAT | 'true' | 'false' | STRING | DTYPE | '(' (INT (',' INT)* ','?)? ')'
    AttrValue parseAttrValue()
    {
        if (m_token.kind == TokenKind::String)
            return take().text;
        if (isIdent("true") || isIdent("false"))
            return take().text == "true";
        static const std::pair<const char*, DType> dtypes[] = {{"Bool", DType::Bool}, {"Int32", DType::Int32},
            {"Int64", DType::Int64}, {"Float32", DType::Float32}, {"Float64", DType::Float64}};
        for (const auto& [name, dtype] : dtypes)
            if (isIdent(name)) {
                take();
                return dtype;
            }
        if (isPunct('('))
            return parseIntTuple();
        if (m_token.kind != TokenKind::Number)
            error("expected an attribute value, got " + describe());
        if (m_token.text.find_first_of(".eEin") == std::string::npos)
            return parseInteger();
        return parseNumber();
    }

    std::vector<std::int64_t> parseIntTuple()
    {
        take();
        std::vector<std::int64_t> values;
        while (!isPunct(')')) {
            values.push_back(parseInteger());
            if (!isPunct(','))
                break;
            take();
        }
        expectPunct(')');
        return values;
    }

    // trailer := ('[' PHASE ']')? ('from' VALUE)? ('@' PATH)? ('#' FILE ':' LINE ':' COL)?
    NodeIdentity parseTrailer(Scope& scope)
    {
        NodeIdentity identity;
        if (isPunct('[')) {
            take();
            if (isIdent("backward") || isIdent("update"))
                identity.phase = take().text == "backward" ? Phase::Backward : Phase::Update;
            else
                error("expected 'backward' or 'update', got " + describe());
            expectPunct(']');
        }
        if (isIdent("from")) {
            take();
            const Token at = m_token;
            const GraphValue& v = scope.graph.value(parseValueUse(scope));
            if (v.kind != ValueKind::NodeOutput)
                errorAt(at, "'from' names a value produced by a node");
            identity.origin = v.node;
        }
        if (m_token.kind == TokenKind::At)
            identity.scope = take().text;
        if (m_token.kind == TokenKind::Location)
            identity.location = parseLocation(take());
        return identity;
    }

    SourceLocation parseLocation(const Token& t)
    {
        const std::size_t colon2 = t.text.rfind(':');
        const std::size_t colon1 = colon2 == std::string::npos || colon2 == 0 ? std::string::npos : t.text.rfind(':', colon2 - 1);
        if (colon1 == std::string::npos || colon1 == 0)
            errorAt(t, "expected a location 'FILE:LINE:COL' after '#', got '" + t.text + "'");
        SourceLocation loc;
        char* end = nullptr;
        loc.line = static_cast<int>(std::strtol(t.text.c_str() + colon1 + 1, &end, 10));
        const bool lineOk = end == t.text.c_str() + colon2;
        loc.column = static_cast<int>(std::strtol(t.text.c_str() + colon2 + 1, &end, 10));
        if (!lineOk || *end != '\0')
            errorAt(t, "expected a location 'FILE:LINE:COL' after '#', got '" + t.text + "'");
        auto& file = m_files[t.text.substr(0, colon1)];
        if (!file)
            file = std::make_shared<const std::string>(t.text.substr(0, colon1));
        loc.file = file;
        return loc;
    }

    TextLexer m_lexer;
    Token m_token;
    std::map<std::string, std::shared_ptr<const std::string>> m_files;
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
