// Op attributes: a small ordered name -> value list (axis, keep_dims, stride, ...).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/dtype.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gradstep {

using AttrValue = std::variant<std::int64_t, double, bool, std::vector<std::int64_t>, std::string, DType>;

class Attrs {
public:
    Attrs() = default;
    Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items) : m_items(items) {}

    Attrs& set(std::string_view name, AttrValue value);
    bool has(std::string_view name) const { return find(name) != nullptr; }
    /// Typed getters: a missing attribute without a fallback, or a wrong kind, throws ValueError.
    std::int64_t getInt(std::string_view name) const;
    std::int64_t getInt(std::string_view name, std::int64_t fallback) const;
    double getFloat(std::string_view name) const;
    double getFloat(std::string_view name, double fallback) const;
    bool getBool(std::string_view name, bool fallback) const;
    std::vector<std::int64_t> getInts(std::string_view name) const;
    std::vector<std::int64_t> getInts(std::string_view name, std::vector<std::int64_t> fallback) const;
    std::string getString(std::string_view name, std::string fallback) const;
    DType getDType(std::string_view name) const;

    const std::vector<std::pair<std::string, AttrValue>>& items() const { return m_items; }
    bool empty() const { return m_items.empty(); }
    /// "{axis=1, keep_dims=false}" (empty string when there are none).
    std::string toString() const;
    friend bool operator==(const Attrs& a, const Attrs& b) { return a.m_items == b.m_items; }

private:
    const AttrValue* find(std::string_view name) const;
    std::vector<std::pair<std::string, AttrValue>> m_items;
};

/// How an attribute value prints (Note [One printer for attribute values]): Message for error
/// texts and the display (numbers as %g: 0.2, not 0.20000000298023224), Exact for the graph text
/// form, which must read back bit for bit (shortest round-trip numbers, strings escaped).
enum class AttrText : std::uint8_t { Message, Exact };
/// The literal form of an attribute value: 3, 0.5, true, (1, 2), 'same', Float32.
std::string attrValueToString(const AttrValue& value, AttrText style = AttrText::Message);
/// The shortest decimal that reads back as the same double (always with '.', 'e', inf or nan).
std::string printDouble(double value);
/// The same for a float32 value.
std::string printFloat(float value);
/// `s` between `quote`s, the quote and backslashes escaped, newlines as \n.
std::string quotedText(const std::string& s, char quote);

} // namespace gradstep
