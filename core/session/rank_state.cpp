// A rank's pause and tensors as messages. SPDX-License-Identifier: MIT
#include "session/rank_state.h"

#include "dist/communicator.h"

#include <cstdio>
#include <filesystem>

namespace gradstep::session {

namespace {

/// FILE:LINE:COL with FILE relative to the working directory when it is under it (as the CLI
/// shows script paths).
std::string locationText(const SourceLocation& location)
{
    if (!location.file)
        return {};
    std::string file = *location.file;
    std::error_code error;
    const std::string here = std::filesystem::current_path(error).string() + "/";
    if (!error && file.rfind(here, 0) == 0)
        file = file.substr(here.size());
    return file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
}

std::vector<std::int64_t> shapeFromJson(const Json& json)
{
    std::vector<std::int64_t> shape;
    for (const Json& d : json.asArray())
        shape.push_back(d.asInt());
    return shape;
}

/// The tensor `name` names at this pause, or an error text.
const debug::TensorRecord* findTensor(const debug::SessionState& state, const std::string& name, std::string& label,
                               std::string& error)
{
    const debug::RecordPtr& live = state.liveNode;
    int index = -1;
    char kind[16] = {};
    if (std::sscanf(name.c_str(), "%15s %d", kind, &index) == 2 && (std::string(kind) == "output" || std::string(kind) == "input")) {
        if (!live) {
            error = "the rank is not paused at a node";
            return nullptr;
        }
        const auto& list = std::string(kind) == "output" ? live->outputs : live->inputs;
        if (index < 0 || static_cast<std::size_t>(index) >= list.size()) {
            error = live->fullName + " has no " + name;
            return nullptr;
        }
        label = name + " of " + live->fullName;
        const debug::TensorRecord& t = list[static_cast<std::size_t>(index)];
        // Inputs keep stats only: an input another node of the step produced is that node's
        // output, snapshot and all.
        if (&list == &live->inputs && t.id.kind == debug::TensorId::Kind::Output)
            for (const debug::RecordPtr& r : state.records)
                if (r->seq == t.id.node && t.id.output < r->outputs.size())
                    return &r->outputs[t.id.output];
        return &t;
    }
    unsigned long long seq = 0;
    unsigned output = 0;
    if (std::sscanf(name.c_str(), "#%llu:%u", &seq, &output) == 2) {
        for (const debug::RecordPtr& r : state.records)
            if (r->seq == seq) {
                if (output >= r->outputs.size()) {
                    error = r->fullName + " has no output " + std::to_string(output);
                    return nullptr;
                }
                label = "output " + std::to_string(output) + " of " + r->fullName;
                return &r->outputs[output];
            }
        error = "no record #" + std::to_string(seq) + " in the current step";
        return nullptr;
    }
    error = "unknown tensor '" + name + "' (output K, input K, #SEQ:K or grad:PARAM)";
    return nullptr;
}

Json tensorHeader(int rank, const std::string& name, const std::string& label, const Tensor& t)
{
    return Json(Json::Object{{"rank", rank}, {"name", name}, {"label", label}, {"shape", rankShapeJson(t.shape())},
                             {"dtype", std::string(dtypeName(t.dtype()))}, {"count", t.numel()}});
}

} // namespace

Json rankShapeJson(const Shape& shape)
{
    Json::Array dims;
    for (int d = 0; d < shape.rank(); ++d)
        dims.emplace_back(shape[d]);
    return Json(std::move(dims));
}

std::string RankPause::describe() const
{
    if (!atNode())
        return status == "failed" ? "failed" : status + (reason.empty() || reason == "none" ? "" : " (" + reason + ")");
    return "node #" + std::to_string(seq) + " of step " + std::to_string(step) + ": " + node + " (" + op + ", " + phase
           + ")" + (location.empty() ? "" : " at " + location);
}

Json rankPauseToJson(int rank, const debug::SessionState& state)
{
    Json out(Json::Object{{"rank", rank},
                          {"status", debug::sessionStatusName(state.status)},
                          {"reason", debug::pauseReasonName(state.why.reason)},
                          {"condition", state.why.condition},
                          {"step", state.step},
                          {"nodes", state.nodesExecuted},
                          {"collectives", dist::worldCollectivesCompleted()}});
    const debug::RecordPtr& live = state.liveNode;
    if (state.status == debug::SessionStatus::Paused && live) {
        out["seq"] = live->seq;
        out["node"] = live->fullName;
        out["op"] = live->op;
        out["phase"] = phaseName(live->phase);
        out["location"] = locationText(live->location);
        Json::Array tensors;
        for (std::size_t i = 0; i < live->outputs.size(); ++i)
            tensors.emplace_back("output " + std::to_string(i));
        for (std::size_t i = 0; i < live->inputs.size(); ++i)
            tensors.emplace_back("input " + std::to_string(i));
        out["tensors"] = Json(std::move(tensors));
    }
    if (state.diagnostic && state.status == debug::SessionStatus::Failed)
        out["diagnostic"] = state.diagnostic->format();
    return out;
}

RankPause rankPauseFromJson(const Json& json)
{
    RankPause p;
    p.rank = static_cast<int>(json["rank"].asInt());
    p.status = json["status"].asString();
    p.reason = json["reason"].asString();
    p.condition = json["condition"].asString();
    p.step = json["step"].asInt();
    p.nodesExecuted = static_cast<std::uint64_t>(json["nodes"].asInt());
    if (const Json* collectives = json.find("collectives"))
        p.collectives = collectives->asInt();
    if (const Json* seq = json.find("seq")) {
        p.seq = static_cast<std::uint64_t>(seq->asInt());
        p.node = json["node"].asString();
        p.op = json["op"].asString();
        p.phase = json["phase"].asString();
        p.location = json["location"].asString();
        for (const Json& t : json["tensors"].asArray())
            p.tensors.push_back(t.asString());
    }
    if (const Json* d = json.find("diagnostic"))
        p.diagnostic = d->asString();
    return p;
}

bool ranksAtSameNode(const std::vector<RankPause>& pauses)
{
    if (pauses.empty())
        return false;
    for (const RankPause& p : pauses)
        if (!p.sameNode(pauses.front()))
            return false;
    return true;
}

std::string ranksAgreementText(const std::vector<RankPause>& pauses)
{
    const std::string n = std::to_string(pauses.size());
    if (ranksAtSameNode(pauses))
        return "all " + n + " ranks paused at the same node: " + pauses.front().describe();
    bool allEnded = !pauses.empty();
    for (const RankPause& p : pauses)
        allEnded = allEnded && p.status == "finished";
    if (allEnded)
        return "all " + n + " ranks finished";
    std::string text = "the " + n + " ranks are not at the same node:";
    for (const RankPause& p : pauses)
        text += " rank " + std::to_string(p.rank) + " " + p.describe() + ";";
    text.pop_back();
    return text;
}

RankMessage rankTensorMessage(int rank, const debug::SessionState& state, const std::string& name)
{
    RankMessage m;
    std::string label, error;
    Tensor value;
    if (name.rfind("grad:", 0) == 0) {
        const std::string param = name.substr(5);
        for (const debug::ParameterGradient& g : state.gradients)
            if (g.name == param)
                value = g.gradient;
        label = "gradient of " + param + " on this rank (before the all-reduce)";
        if (!value.defined())
            error = "no gradient of '" + param + "' in this step yet";
    } else if (const debug::TensorRecord* t = findTensor(state, name, label, error)) {
        value = t->snapshot;
        if (!value.defined())
            error = label + ": " + (t->snapshotDropped ? "its snapshot was dropped (memory cap)"
                                    : "no snapshot was kept (only outputs of the step's nodes have one)");
    }
    if (!value.defined()) {
        m.header = Json(Json::Object{{"rank", rank}, {"name", name}, {"error", error}});
        return m;
    }
    m.header = tensorHeader(rank, name, label, value);
    m.block = doublesToBlock(value.toDoubles());
    return m;
}

RankTensor rankTensorFromMessage(const RankMessage& message)
{
    const Json& h = message.header;
    RankTensor t;
    t.rank = static_cast<int>(h["rank"].asInt());
    t.name = h["name"].asString();
    if (const Json* error = h.find("error")) {
        t.error = error->asString();
        return t;
    }
    t.label = h["label"].asString();
    t.shape = shapeFromJson(h["shape"]);
    t.dtype = h["dtype"].asString();
    t.values = doublesFromBlock(message.block, 0, static_cast<std::size_t>(h["count"].asInt()));
    return t;
}

} // namespace gradstep::session
