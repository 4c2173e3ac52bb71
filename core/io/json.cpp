// JSON values and the writer; the parser is in json_parser.cpp. SPDX-License-Identifier: MIT
#include "io/json.h"

#include "io/number_format.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace gradstep {

JsonError::JsonError(int line, int column, const std::string& message, const std::string& file)
    : ValueError((file.empty() ? "" : file + ":") + std::to_string(line) + ":"
                 + std::to_string(column) + ": " + message),
      m_line(line), m_column(column), m_message(message)
{}

const char* jsonKindName(Json::Kind kind)
{
    switch (kind) {
    case Json::Kind::Null: return "null";
    case Json::Kind::Bool: return "bool";
    case Json::Kind::Number: return "number";
    case Json::Kind::String: return "string";
    case Json::Kind::Array: return "array";
    case Json::Kind::Object: return "object";
    }
    return "null";
}

namespace {

[[noreturn]] void throwKind(const char* expected, Json::Kind got)
{
    throw TypeError(std::string("expected a JSON ") + expected + ", got " + jsonKindName(got));
}

void writeString(std::string& out, const std::string& s)
{
    static const char* const hex = "0123456789abcdef";
    out += '"';
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void newline(std::string& out, int indent, int depth)
{
    if (indent < 0)
        return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth), ' ');
}

} // namespace

bool Json::asBool() const
{
    if (!isBool())
        throwKind("bool", kind());
    return std::get<bool>(m_value);
}

double Json::asNumber() const
{
    if (!isNumber())
        throwKind("number", kind());
    return std::get<double>(m_value);
}

std::int64_t Json::asInt() const
{
    const double v = asNumber();
    // 2^63 is exactly representable; every double below it in magnitude fits in int64.
    if (v != std::floor(v) || !(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        throw ValueError("expected an integral JSON number within int64, got " + formatNumber(v));
    return static_cast<std::int64_t>(v);
}

const std::string& Json::asString() const
{
    if (!isString())
        throwKind("string", kind());
    return std::get<std::string>(m_value);
}

const Json::Array& Json::asArray() const
{
    if (!isArray())
        throwKind("array", kind());
    return std::get<Array>(m_value);
}

const Json::Object& Json::asObject() const
{
    if (!isObject())
        throwKind("object", kind());
    return std::get<Object>(m_value);
}

Json::Array& Json::asArray()
{
    if (!isArray())
        throwKind("array", kind());
    return std::get<Array>(m_value);
}

Json::Object& Json::asObject()
{
    if (!isObject())
        throwKind("object", kind());
    return std::get<Object>(m_value);
}

std::size_t Json::size() const
{
    if (isArray())
        return asArray().size();
    return isObject() ? asObject().size() : 0;
}

const Json& Json::operator[](std::size_t index) const
{
    const Array& items = asArray();
    if (index >= items.size())
        throw IndexError("JSON array index " + std::to_string(index)
                         + " out of range for an array of " + std::to_string(items.size()));
    return items[index];
}

const Json* Json::find(std::string_view key) const
{
    if (!isObject())
        return nullptr;
    for (const auto& [name, value] : asObject())
        if (name == key)
            return &value;
    return nullptr;
}

const Json& Json::operator[](std::string_view key) const
{
    const Object& members = asObject();
    for (const auto& [name, value] : members)
        if (name == key)
            return value;
    throw ValueError("JSON object has no member '" + std::string(key) + "'");
}

Json& Json::operator[](std::string_view key)
{
    if (isNull())
        m_value = Object{};
    Object& members = asObject();
    for (auto& [name, value] : members)
        if (name == key)
            return value;
    members.emplace_back(std::string(key), Json());
    return members.back().second;
}

void Json::push_back(Json item)
{
    if (isNull())
        m_value = Array{};
    asArray().push_back(std::move(item));
}

std::string Json::dump(int indent) const
{
    std::string out;
    dump(out, indent, 0);
    return out;
}

void Json::dump(std::string& out, int indent, int depth) const
{
    const char* separator = indent < 0 ? ":" : ": ";
    switch (kind()) {
    case Kind::Null: out += "null"; return;
    case Kind::Bool: out += asBool() ? "true" : "false"; return;
    case Kind::Number: {
        const double v = asNumber();
        if (!std::isfinite(v))
            throw ValueError("JSON cannot represent the number " + formatNumber(v));
        out += formatNumber(v);
        return;
    }
    case Kind::String: writeString(out, asString()); return;
    case Kind::Array:
    case Kind::Object: break;
    }
    const bool isArr = isArray();
    out += isArr ? '[' : '{';
    const std::size_t n = size();
    for (std::size_t i = 0; i < n; ++i) {
        if (i)
            out += ',';
        newline(out, indent, depth + 1);
        if (isArr) {
            asArray()[i].dump(out, indent, depth + 1);
        } else {
            writeString(out, asObject()[i].first);
            out += separator;
            asObject()[i].second.dump(out, indent, depth + 1);
        }
    }
    if (n)
        newline(out, indent, depth);
    out += isArr ? ']' : '}';
}

Json Json::parseFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw RuntimeError("cannot open '" + path + "' for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    try {
        return parse(buffer.str());
    } catch (const JsonError& e) {
        throw JsonError(e.line(), e.column(), e.message(), path);
    }
}

} // namespace gradstep
