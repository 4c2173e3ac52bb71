// Op attributes. SPDX-License-Identifier: MIT
#include "ops/attrs.h"

#include "tensor/errors.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gradstep {

Attrs& Attrs::set(std::string_view name, AttrValue value)
{
    for (auto& [key, v] : m_items)
        if (key == name) {
            v = std::move(value);
            return *this;
        }
    m_items.emplace_back(std::string(name), std::move(value));
    return *this;
}

const AttrValue* Attrs::find(std::string_view name) const
{
    for (const auto& [key, v] : m_items)
        if (key == name)
            return &v;
    return nullptr;
}

namespace {
template <class T> const T& need(const AttrValue* v, std::string_view name, const char* kind)
{
    if (!v)
        throw ValueError("missing attribute '" + std::string(name) + "'");
    if (const T* p = std::get_if<T>(v))
        return *p;
    throw ValueError("attribute '" + std::string(name) + "' must be " + kind + ", got "
                     + attrValueToString(*v));
}
} // namespace

std::int64_t Attrs::getInt(std::string_view name) const
{
    const AttrValue* v = find(name);
    if (v)
        if (const bool* b = std::get_if<bool>(v))
            return *b;
    return need<std::int64_t>(v, name, "an int");
}

std::int64_t Attrs::getInt(std::string_view name, std::int64_t fallback) const
{
    return has(name) ? getInt(name) : fallback;
}

double Attrs::getFloat(std::string_view name) const
{
    const AttrValue* v = find(name);
    if (v)
        if (const std::int64_t* i = std::get_if<std::int64_t>(v))
            return static_cast<double>(*i);
    return need<double>(v, name, "a float");
}

double Attrs::getFloat(std::string_view name, double fallback) const
{
    return has(name) ? getFloat(name) : fallback;
}

bool Attrs::getBool(std::string_view name, bool fallback) const
{
    return has(name) ? need<bool>(find(name), name, "a bool") : fallback;
}

std::vector<std::int64_t> Attrs::getInts(std::string_view name) const
{
    const AttrValue* v = find(name);
    if (v)
        if (const std::int64_t* i = std::get_if<std::int64_t>(v))
            return {*i};
    return need<std::vector<std::int64_t>>(v, name, "a tuple of ints");
}

std::vector<std::int64_t> Attrs::getInts(std::string_view name, std::vector<std::int64_t> fallback) const
{
    return has(name) ? getInts(name) : fallback;
}

std::string Attrs::getString(std::string_view name, std::string fallback) const
{
    return has(name) ? need<std::string>(find(name), name, "a string") : fallback;
}

DType Attrs::getDType(std::string_view name) const { return need<DType>(find(name), name, "a dtype"); }

// Note [One printer for attribute values]
// Error messages, the display and the graph text form all print attributes here, so a new
// attribute type is added once. They differ only where they must: the text form reads back bit
// for bit, a message stays readable.
std::string attrValueToString(const AttrValue& value, AttrText style)
{
    struct Visitor {
        AttrText style;
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const
        {
            if (style == AttrText::Exact)
                return printDouble(v);
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", v);
            return buf;
        }
        std::string operator()(bool v) const { return v ? "true" : "false"; }
        std::string operator()(const std::vector<std::int64_t>& v) const
        {
            std::string s = "(";
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(v[i]);
            return s + (v.size() == 1 ? ",)" : ")");
        }
        std::string operator()(const std::string& v) const
        {
            return style == AttrText::Exact ? quotedText(v, '\'') : "'" + v + "'";
        }
        std::string operator()(DType v) const { return std::string(dtypeName(v)); }
    };
    return std::visit(Visitor{style}, value);
}

namespace {

std::string ensureFloatLook(std::string s)
{
    if (s.find_first_of(".eni") == std::string::npos)
        s += ".0";
    return s;
}

} // namespace

std::string printDouble(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buf[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, value);
        if (std::strtod(buf, nullptr) == value)
            break;
    }
    return ensureFloatLook(buf);
}

std::string printFloat(float value)
{
    if (std::isnan(value) || std::isinf(value))
        return printDouble(static_cast<double>(value));
    char buf[40];
    for (int precision = 1; precision <= 9; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(value));
        if (std::strtof(buf, nullptr) == value)
            break;
    }
    return ensureFloatLook(buf);
}

std::string quotedText(const std::string& s, char quote)
{
    std::string out(1, quote);
    for (char c : s) {
        if (c == quote || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out + quote;
}

std::string Attrs::toString() const
{
    if (m_items.empty())
        return "";
    std::string s = "{";
    for (std::size_t i = 0; i < m_items.size(); ++i)
        s += (i ? ", " : "") + m_items[i].first + "=" + attrValueToString(m_items[i].second);
    return s + "}";
}

} // namespace gradstep
