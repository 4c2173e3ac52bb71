// SPDX-License-Identifier: MIT
#include "migrate/arguments.h"

#include "io/number_format.h"

#include <cstdlib>

namespace gradstep::migrate {

std::string pythonText(const Json& value)
{
    switch (value.kind()) {
    case Json::Kind::Null:
        return "None";
    case Json::Kind::Bool:
        return value.asBool() ? "True" : "False";
    case Json::Kind::Number: {
        const double d = value.asNumber();
        if (d == static_cast<double>(static_cast<long long>(d)) && std::abs(d) < 1e15)
            return std::to_string(static_cast<long long>(d));
        return formatNumber(d);
    }
    case Json::Kind::String:
        return "'" + value.asString() + "'";
    case Json::Kind::Array: {
        const auto& items = value.asArray();
        bool same = !items.empty();
        for (const Json& item : items)
            same = same && item == items.front();
        if (same)
            return pythonText(items.front());
        std::string out = "(";
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? ", " : "") + pythonText(items[i]);
        return out + (items.size() == 1 ? ",)" : ")");
    }
    case Json::Kind::Object:
        return "{...}";
    }
    return "?";
}

const Json* torchArgument(const Json* entry, const std::string& name)
{
    if (!entry)
        return nullptr;
    const Json* args = entry->find("args");
    return args ? args->find(name) : nullptr;
}

std::optional<MsArgument> msArgument(const Json* entry, const std::string& name)
{
    if (!entry)
        return std::nullopt;
    const Json* args = entry->find("args");
    if (!args)
        return std::nullopt;
    if (const Json* given = args->find("given"); given && given->find(name))
        return MsArgument{pythonText(*given->find(name)), false};
    if (const Json* defaults = args->find("defaults"); defaults && defaults->find(name) && (*defaults)[name].isString())
        return MsArgument{(*defaults)[name].asString(), true};
    return std::nullopt;
}

std::optional<double> numberOf(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0')
        return std::nullopt;
    return d;
}

} // namespace gradstep::migrate
