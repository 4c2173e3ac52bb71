// The token cursor of the graph text parser. SPDX-License-Identifier: MIT
#include "graph/text_cursor.h"

#include <cmath>
#include <cstdlib>

namespace gradstep {

[[noreturn]] void TokenCursor::error(const std::string& message) const
{
    errorAt(m_token, message);
}

[[noreturn]] void TokenCursor::errorAt(const Token& t, const std::string& message)
{
    throwParseError(message, t.line, t.column);
}

std::string TokenCursor::describe() const
{
    switch (m_token.kind) {
    case TokenKind::End: return "the end of the input";
    case TokenKind::Value: return "'%" + m_token.text + "'";
    case TokenKind::At: return "'@" + m_token.text + "'";
    case TokenKind::Location: return "a location";
    default: return "'" + m_token.text + "'";
    }
}

Token TokenCursor::take()
{
    Token t = m_token;
    m_token = m_lexer.next();
    return t;
}

bool TokenCursor::isPunct(char c) const
{
    return m_token.kind == TokenKind::Punct && m_token.text[0] == c;
}

bool TokenCursor::isIdent(std::string_view s) const
{
    return m_token.kind == TokenKind::Ident && m_token.text == s;
}

void TokenCursor::expectPunct(char c)
{
    if (!isPunct(c))
        error(std::string("expected '") + c + "', got " + describe());
    take();
}

void TokenCursor::expectIdent(std::string_view s)
{
    if (!isIdent(s))
        error("expected '" + std::string(s) + "', got " + describe());
    take();
}

// type := ('f32' | 'f64' | 'i32' | 'i64' | 'bool' | 'f16' | 'bf16' | 'i8' | 'u8' | ...) '[' (INT (',' INT)*)? ']'
TensorSpec TokenCursor::parseType()
{
    static const std::pair<const char*, DType> dtypes[] = {{"f32", DType::Float32},
                                                           {"f64", DType::Float64},
                                                           {"i32", DType::Int32},
                                                           {"i64", DType::Int64},
                                                           {"bool", DType::Bool},
                                                           {"i8", DType::Int8},
                                                           {"i16", DType::Int16},
                                                           {"u8", DType::UInt8},
                                                           {"u16", DType::UInt16},
                                                           {"u32", DType::UInt32},
                                                           {"u64", DType::UInt64},
                                                           {"f16", DType::Float16},
                                                           {"c64", DType::Complex64},
                                                           {"c128", DType::Complex128},
                                                           {"bf16", DType::BFloat16}};
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

std::int64_t TokenCursor::parseInteger()
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

double TokenCursor::parseNumber()
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

double TokenCursor::parseLiteralNumber()
{
    if (isIdent("true") || isIdent("false"))
        return take().text == "true" ? 1.0 : 0.0;
    if (isIdent("inf") || isIdent("nan"))
        return take().text == "inf" ? INFINITY : NAN;
    if (m_token.kind != TokenKind::Number)
        error("expected a number, got " + describe());
    return parseNumber();
}

// attrs := '{' NAME '=' attr (',' NAME '=' attr)* '}'
Attrs TokenCursor::parseAttrs()
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
AttrValue TokenCursor::parseAttrValue()
{
    if (m_token.kind == TokenKind::String)
        return take().text;
    if (isIdent("true") || isIdent("false"))
        return take().text == "true";
    for (DType dtype : kAllDTypes)
        if (isIdent(dtypeName(dtype))) {
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

std::vector<std::int64_t> TokenCursor::parseIntTuple()
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

SourceLocation TokenCursor::parseLocation(const Token& t)
{
    const std::size_t colon2 = t.text.rfind(':');
    const std::size_t colon1 = colon2 == std::string::npos || colon2 == 0
                                   ? std::string::npos
                                   : t.text.rfind(':', colon2 - 1);
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

} // namespace gradstep
