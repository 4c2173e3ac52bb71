// Node records. SPDX-License-Identifier: MIT
#include "debug/node_record.h"

namespace gradstep::debug {

TensorId TensorId::ofOutput(std::uint64_t recordSeq, std::uint32_t index)
{
    return TensorId{Kind::Output, recordSeq, index, {}};
}

TensorId TensorId::ofParameter(std::string name) { return TensorId{Kind::Parameter, 0, 0, std::move(name)}; }

TensorId TensorId::ofExternal(std::uint64_t number) { return TensorId{Kind::External, number, 0, {}}; }

std::string TensorId::toString() const
{
    switch (kind) {
    case Kind::Output: return "#" + std::to_string(node) + ":" + std::to_string(output);
    case Kind::Parameter: return "param:" + name;
    case Kind::External: break;
    }
    return "ext:" + std::to_string(node);
}

std::size_t TensorIdHash::operator()(const TensorId& id) const
{
    const std::size_t h = id.kind == TensorId::Kind::Parameter ? std::hash<std::string>{}(id.name)
                                                               : std::hash<std::uint64_t>{}(id.node);
    return h * 31 + static_cast<std::size_t>(id.kind) * 7 + id.output;
}

bool NodeRecord::allInputsFinite() const
{
    for (const TensorRecord& t : inputs)
        if (t.defined && !t.stats.allFinite())
            return false;
    return true;
}

bool NodeRecord::anyOutputNonFinite() const
{
    for (const TensorRecord& t : outputs)
        if (t.defined && !t.stats.allFinite())
            return true;
    return false;
}

std::string NodeRecord::locationText() const { return shortLocation(location); }

std::string NodeRecord::where() const
{
    const std::string scoped = scope.empty() ? op : scope + "/" + op;
    std::string s = phase == Phase::Backward ? "backward of " + scoped : scoped;
    const std::string at = locationText();
    if (!at.empty())
        s += " (" + at + ")";
    return s;
}

std::size_t NodeRecord::snapshotBytes() const
{
    std::size_t bytes = 0;
    for (const TensorRecord& t : inputs)
        bytes += t.snapshotBytes();
    for (const TensorRecord& t : outputs)
        bytes += t.snapshotBytes();
    for (const TensorRecord& t : inputTangents)
        bytes += t.snapshotBytes();
    for (const TensorRecord& t : outputTangents)
        bytes += t.snapshotBytes();
    return bytes;
}

std::string shortLocation(const SourceLocation& location)
{
    if (!location.file)
        return {};
    const std::string& file = *location.file;
    const std::size_t slash = file.find_last_of("/\\");
    return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":"
           + std::to_string(location.line);
}

std::string recordFullName(Phase phase, const std::string& scope, const std::string& op)
{
    const bool named = scope == "Gradients" || scope.rfind("Gradients/", 0) == 0;
    const std::string path = scope.empty() ? op : scope + "/" + op;
    return phase == Phase::Backward && !named ? "Gradients/" + path : path;
}

} // namespace gradstep::debug
