// A small JSON value with a strict RFC 8259 parser and a writer, for reports and test fixtures.
// Objects keep insertion order; numbers are doubles (integers are exact up to 2^53).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/errors.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace gradstep {

/// A parse error: what() is "line:col: message" (1-based; columns count characters), or
/// "file:line:col: message" when read from a file.
class JsonError : public ValueError {
public:
    JsonError(int line, int column, const std::string& message, const std::string& file = {});
    const std::string& message() const { return m_message; }
    int line() const { return m_line; }
    int column() const { return m_column; }

private:
    int m_line;
    int m_column;
    std::string m_message;
};

class Json {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object };
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : m_value(b) {}
    template <class T,
              std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Json(T number) : m_value(static_cast<double>(number))
    {}
    Json(const char* s) : m_value(std::string(s)) {}
    Json(std::string s) : m_value(std::move(s)) {}
    Json(std::string_view s) : m_value(std::string(s)) {}
    Json(Array items) : m_value(std::move(items)) {}
    Json(Object members) : m_value(std::move(members)) {}
    static Json array() { return Json(Array{}); }
    static Json object() { return Json(Object{}); }

    /// Strict parse of a whole document; JsonError with line:col on any deviation from RFC 8259
    /// (trailing commas, comments, leading zeros, NaN, control characters, bad escapes or UTF-8,
    /// duplicate keys, trailing text, nesting deeper than 512).
    static Json parse(std::string_view text);
    /// Reads and parses a file; errors are prefixed with the path ("path:line:col: ...").
    static Json parseFile(const std::string& path);
    /// Compact text when indent < 0, else one item per line indented by `indent` spaces.
    /// ValueError for NaN or infinite numbers, which JSON cannot represent.
    std::string dump(int indent = -1) const;

    Kind kind() const { return static_cast<Kind>(m_value.index()); }
    bool isNull() const { return kind() == Kind::Null; }
    bool isBool() const { return kind() == Kind::Bool; }
    bool isNumber() const { return kind() == Kind::Number; }
    bool isString() const { return kind() == Kind::String; }
    bool isArray() const { return kind() == Kind::Array; }
    bool isObject() const { return kind() == Kind::Object; }

    // Typed access; TypeError ("expected a JSON number, got string") on the wrong kind.
    bool asBool() const;
    double asNumber() const;
    /// The number as an integer; ValueError unless it is integral and within int64.
    std::int64_t asInt() const;
    const std::string& asString() const;
    const Array& asArray() const;
    const Object& asObject() const;
    Array& asArray();
    Object& asObject();

    /// Array length or object member count; 0 for scalars.
    std::size_t size() const;
    /// Array element; IndexError when out of range.
    const Json& operator[](std::size_t index) const;
    /// Object member; ValueError naming the key when it is absent.
    const Json& operator[](std::string_view key) const;
    /// Object member, inserted as null when absent (a null value becomes an empty object first).
    Json& operator[](std::string_view key);
    /// The member, or null when absent or when this is not an object.
    const Json* find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    /// Appends to an array (a null value becomes an empty array first).
    void push_back(Json item);

    friend bool operator==(const Json& a, const Json& b) { return a.m_value == b.m_value; }

private:
    void dump(std::string& out, int indent, int depth) const;
    std::variant<std::nullptr_t, bool, double, std::string, Array, Object> m_value;
};

/// "null", "bool", "number", "string", "array", "object".
const char* jsonKindName(Json::Kind kind);

} // namespace gradstep
