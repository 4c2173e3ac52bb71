// The stop report of `gradstep debug`. SPDX-License-Identifier: MIT
#include "app/debug_report.h"

#include "io/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace gradstep::app {

namespace {

std::string sourceLine(const std::string& file, int line)
{
    std::ifstream in(file);
    std::string text;
    for (int i = 0; i < line && std::getline(in, text); ++i) {
    }
    return in ? text : std::string();
}

Json number(double v)
{
    if (std::isnan(v))
        return Json("nan");
    if (std::isinf(v))
        return Json(v > 0 ? "inf" : "-inf");
    return Json(v);
}

Json statsJson(const debug::TensorRecord& t)
{
    Json j = Json::object();
    j["id"] = t.id.toString();
    if (!t.defined) {
        j["defined"] = false;
        return j;
    }
    const debug::TensorStats& s = t.stats;
    j["shape"] = s.shape.toString();
    j["dtype"] = std::string(dtypeName(s.dtype));
    j["min"] = number(s.min);
    j["max"] = number(s.max);
    j["mean"] = number(s.mean);
    j["std"] = number(s.std);
    j["l2"] = number(s.l2Norm);
    j["nan_count"] = s.nanCount;
    j["inf_count"] = s.infCount();
    j["zero_share"] = number(s.zeroShare());
    if (!t.parameter.empty())
        j["parameter"] = t.parameter;
    return j;
}

Json tensorsJson(const std::vector<debug::TensorRecord>& list)
{
    Json a = Json::array();
    for (const debug::TensorRecord& t : list)
        a.push_back(statsJson(t));
    return a;
}

/// The overflow watchpoint's finding beside the node, as nan_root_cause is beside the NaN's.
Json overflowJson(const debug::HalfPrecisionIssue& issue)
{
    Json o = Json::object();
    o["kind"] = issue.kindName();
    o["dtype"] = std::string(dtypeName(issue.dtype));
    o["output"] = issue.output;
    o["count"] = issue.count;
    o["index"] = issue.index;
    o["half_value"] = number(issue.halfValue);
    o["float32_value"] = number(issue.float32Value);
    o["float32_largest_abs"] = number(std::fabs(issue.float32Extreme));
    o["message"] = issue.describe();
    return o;
}

std::string fileOf(const debug::NodeRecord& r, const python::UserFiles& files)
{
    return r.location.file ? files.display(*r.location.file) : std::string();
}

void appendTensors(std::string& out, const char* what, const std::vector<debug::TensorRecord>& list)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        const debug::TensorRecord& t = list[i];
        char head[64];
        std::snprintf(head, sizeof head, "  %s %zu  %-8s ", what, i, t.id.toString().c_str());
        out += head + (t.defined ? t.stats.summary() : std::string("(none)")) + "\n";
    }
}

} // namespace

std::string debugReason(const debug::SessionState& state)
{
    switch (state.why.reason) {
    case debug::PauseReason::Breakpoint: return "breakpoint";
    case debug::PauseReason::Watchpoint: return "watchpoint";
    case debug::PauseReason::Nan: return "nan";
    default: return "end";
    }
}

std::string debugReportText(const debug::SessionState& state, const python::UserFiles& files)
{
    std::string out = "stopped: " + debugReason(state);
    if (!state.why.condition.empty())
        out += " (" + state.why.condition + ")";
    out += " in step " + std::to_string(state.step) + "\n" + state.why.message + "\n";
    if (state.line && state.line->file) {
        // Before the line runs: no node of it has run, so there are no tensors to show.
        const std::string number = std::to_string(state.line->line);
        out += "  " + files.display(*state.line->file) + ":" + number + "\n";
        if (const std::string text = sourceLine(*state.line->file, state.line->line); !text.empty())
            out += "  " + number + " | " + text + "\n";
        return out;
    }
    const debug::RecordPtr& r = state.node;
    if (!r || state.why.reason == debug::PauseReason::End || state.why.reason == debug::PauseReason::Command)
        return out;
    out += "  node     " + r->fullName + " (" + phaseName(r->phase) + ", #" + std::to_string(r->seq) + ")\n";
    if (r->location.file && r->location.line > 0) {
        const std::string text = sourceLine(*r->location.file, r->location.line);
        const std::string number = std::to_string(r->location.line);
        out += "  " + fileOf(*r, files) + ":" + number + ":" + std::to_string(r->location.column) + "\n";
        if (!text.empty()) {
            out += "  " + number + " | " + text + "\n";
            out += "  " + std::string(number.size(), ' ') + " | ";
            for (int i = 1; i < r->location.column && i <= static_cast<int>(text.size()); ++i)
                out += text[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
            out += "^\n";
        }
    }
    appendTensors(out, "input ", r->inputs);
    appendTensors(out, "output", r->outputs);
    return out;
}

std::string debugReportJson(const debug::SessionState& state, const python::UserFiles& files)
{
    Json j = Json::object();
    j["reason"] = debugReason(state);
    j["condition"] = state.why.condition;
    j["message"] = state.why.message;
    j["step"] = state.step;
    const debug::RecordPtr& r = state.why.reason == debug::PauseReason::End || state.line ? nullptr : state.node;
    if (state.line && state.line->file) {
        j["node"] = nullptr;
        Json location = Json::object();
        location["file"] = files.display(*state.line->file);
        location["line"] = state.line->line;
        location["col"] = 0;
        location["source"] = sourceLine(*state.line->file, state.line->line);
        j["location"] = location;
    } else if (r) {
        Json node = Json::object();
        node["op"] = r->op;
        node["label"] = r->label;
        node["scope"] = r->scope;
        node["name"] = r->fullName;
        node["phase"] = std::string(phaseName(r->phase));
        node["seq"] = r->seq;
        if (!r->attrs.empty())
            node["attrs"] = r->attrs;
        j["node"] = node;
        Json location = Json::object();
        location["file"] = fileOf(*r, files);
        location["line"] = r->location.line;
        location["col"] = r->location.column;
        location["source"] = r->location.file ? sourceLine(*r->location.file, r->location.line) : "";
        j["location"] = location;
        j["inputs"] = tensorsJson(r->inputs);
        j["outputs"] = tensorsJson(r->outputs);
    } else {
        j["node"] = nullptr;
        j["location"] = nullptr;
    }
    Json watch = Json::array();
    for (const debug::WatchHit& h : state.why.watchHits) {
        Json w = Json::object();
        w["node"] = h.node;
        w["tensor"] = h.tensor;
        w["quantity"] = h.quantity;
        w["value"] = number(h.value);
        w["threshold"] = number(h.threshold);
        w["message"] = h.message;
        watch.push_back(std::move(w));
    }
    j["watch"] = watch;
    const bool overflowHit = std::any_of(state.why.watchHits.begin(), state.why.watchHits.end(), [](const debug::WatchHit& h) {
        return h.kind == debug::Watchpoint::Kind::HalfPrecisionOverflow;
    });
    if (r && overflowHit && r->halfPrecision)
        j["overflow"] = overflowJson(*r->halfPrecision);
    if (const auto& cause = state.why.nanRootCause) {
        Json c = Json::object();
        c["kind"] = cause->kind == debug::NanRootCause::Kind::ProducedByNode ? "produced_by_node"
                                                                              : "non_finite_input";
        c["output"] = cause->output;
        if (cause->input)
            c["input"] = *cause->input;
        c["message"] = cause->message;
        j["nan_root_cause"] = c;
    }
    j["loss"] = number(state.loss);
    j["steps_finished"] = state.history.size();
    return j.dump();
}

} // namespace gradstep::app
