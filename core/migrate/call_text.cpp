// SPDX-License-Identifier: MIT
#include "migrate/call_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gradstep::migrate {

namespace {

bool isTensor(const Json& value) { return value.isObject() && value.find("tensor"); }

bool isPrimitive(const Json& call) { return call.find("init") != nullptr; }

bool isMethod(const Json& call) { return call["function"].asString().rfind("Tensor.", 0) == 0; }

/// "PyTorch" or "MindSpore": a method's call names no module, its capture does.
std::string framework(const Json& call)
{
    const Json* side = call.find("framework");
    return side && side->isString() && side->asString() == "mindspore" ? "MindSpore" : "PyTorch";
}

/// The shortest text that reads back as `d`, as Python's repr writes it (0.0001, 1e-05).
std::string pythonFloat(double d)
{
    char text[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(text, sizeof text, "%.*g", precision, d);
        if (std::strtod(text, nullptr) == d)
            break;
    }
    return text;
}

/// Python's keyword arguments that say nothing about the computation.
bool silent(const std::string& name, const Json& value)
{
    return value.isNull() || name == "out" || name == "_stacklevel"
           || (name == "inplace" && value.isBool() && !value.asBool());
}

} // namespace

std::string callFunction(const Json& call)
{
    const std::string& name = call["function"].asString();
    return name.substr(name.rfind('.') + 1);
}

const Json* callArgument(const Json& call, std::size_t position, const std::string& name)
{
    if (const Json* kwargs = call.find("kwargs"); kwargs && kwargs->find(name))
        return kwargs->find(name);
    if (isPrimitive(call))
        return call["init"].find(name);
    if (const Json* args = call.find("args"); args && args->isArray() && position < args->size())
        return &(*args)[position];
    return nullptr;
}

std::string callValueText(const Json& value)
{
    switch (value.kind()) {
    case Json::Kind::Null: return "None";
    case Json::Kind::Bool: return value.asBool() ? "True" : "False";
    case Json::Kind::Number: {
        const double d = value.asNumber();
        if (d == std::floor(d) && std::abs(d) < 1e15)
            return std::to_string(static_cast<long long>(d));
        return pythonFloat(d);
    }
    case Json::Kind::String: return "'" + value.asString() + "'";
    case Json::Kind::Array: {
        std::string out = "(";
        for (std::size_t i = 0; i < value.size(); ++i)
            out += (i ? ", " : "") + callValueText(value[i]);
        return out + (value.size() == 1 ? ",)" : ")");
    }
    case Json::Kind::Object:
        if (isTensor(value))
            return value.find("value") ? callValueText(value["value"]) : "tensor";
        return "{...}";
    }
    return "?";
}

std::optional<double> callNumber(const Json* value)
{
    if (!value)
        return std::nullopt;
    if (value->isNumber())
        return value->asNumber();
    if (isTensor(*value) && value->find("value") && (*value)["value"].isNumber())
        return (*value)["value"].asNumber();
    return std::nullopt;
}

std::string callText(const Json& call)
{
    std::string arguments;
    const auto add = [&arguments](const std::string& text) { arguments += (arguments.empty() ? "" : ", ") + text; };
    const Json& args = call["args"];
    for (std::size_t i = isMethod(call) ? 1 : 0; i < args.size(); ++i)
        add(i == 0 && isTensor(args[i]) ? "x" : callValueText(args[i]));
    if (const Json* kwargs = call.find("kwargs"))
        for (const auto& [name, value] : kwargs->asObject())
            if (!silent(name, value))
                add(name + "=" + callValueText(value));
    if (isMethod(call)) // which Tensor: both sides' methods read alike
        return "x." + callFunction(call) + "(" + arguments + ") (a " + framework(call) + " Tensor method)";
    if (!isPrimitive(call))
        return call["function"].asString() + "(" + arguments + ")";
    std::string attributes;
    for (const auto& [name, value] : call["init"].asObject()) // a primitive keeps axis=0 as [0]
        attributes += (attributes.empty() ? "" : ", ") + name + "="
                      + callValueText(value.isArray() && value.size() == 1 ? value[0] : value);
    return call["function"].asString() + "(" + attributes + ")(" + arguments + ")";
}

} // namespace gradstep::migrate
