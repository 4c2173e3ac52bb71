// A side of a comparison as JSON, both ways: the report's form, the wire form a side run in
// another process hands back (every gradient element, non-finite numbers kept), and a saved
// `gradstep run --report` read back as a side. SPDX-License-Identifier: MIT
#include "session/compare.h"
#include "session/compare_json.h"

#include "tensor/errors.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace gradstep::session {

namespace {

// Note [the wire form]: JSON has no NaN or infinity. The report writes them as null (a reader
// sees "no number"); a side handed between processes must keep them, since a NaN gradient is
// often the very difference being compared, so the wire form writes them as the strings "nan",
// "inf" and "-inf". The first step's gradient elements (about a million numbers for LeNet5) follow
// the JSON line as raw doubles (Note [the wire's gradient block]).
Json wireNumber(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

Json optionalNumber(std::optional<double> v, bool wire)
{
    if (!v)
        return nullptr;
    return wire ? wireNumber(*v) : jsonNumber(v);
}

double readNumber(const Json& j)
{
    if (j.isNumber())
        return j.asNumber();
    if (j.isString()) {
        const std::string& s = j.asString();
        if (s == "nan")
            return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf")
            return -std::numeric_limits<double>::infinity();
    }
    if (j.isNull()) // a report's non-finite number
        return std::numeric_limits<double>::quiet_NaN();
    throw ValueError("a comparison side: expected a number, got " + j.dump());
}

std::optional<double> readOptional(const Json* j)
{
    if (!j || j->isNull())
        return std::nullopt;
    return readNumber(*j);
}

Json curveJson(const std::vector<CurvePoint>& steps, bool wire)
{
    Json out = Json::array();
    for (const CurvePoint& p : steps) {
        Json params = Json::array();
        for (const ParamNorms& n : p.params)
            params.push_back(Json(Json::Object{{"name", n.name},
                                               {"grad_norm", optionalNumber(n.gradNorm, wire)},
                                               {"value_norm", optionalNumber(n.valueNorm, wire)}}));
        out.push_back(Json(Json::Object{{"step", p.step},
                                        {"loss", optionalNumber(p.loss, wire)},
                                        {"lr", optionalNumber(p.learningRate, wire)},
                                        {"params", std::move(params)}}));
    }
    return out;
}

/// Steps of either form: the curve's {"lr"} or a run report's {"learning_rate"}.
std::vector<CurvePoint> curveFromJson(const Json& steps)
{
    std::vector<CurvePoint> out;
    for (const Json& s : steps.asArray()) {
        CurvePoint p;
        p.step = s["step"].asInt();
        p.loss = readOptional(s.find("loss"));
        p.learningRate = readOptional(s.find("lr") ? s.find("lr") : s.find("learning_rate"));
        if (const Json* params = s.find("params"))
            for (const Json& n : params->asArray())
                p.params.push_back({n["name"].asString(),
                                    readOptional(n.find("grad_norm")).value_or(std::nan("")),
                                    readOptional(n.find("value_norm")).value_or(std::nan(""))});
        out.push_back(std::move(p));
    }
    return out;
}

Json paramJson(const ParamGrad& p, bool wire)
{
    Json::Array shape(p.shape.begin(), p.shape.end());
    Json out(Json::Object{{"name", p.name},
                          {"shape", Json(std::move(shape))},
                          {"grad_norm", optionalNumber(p.norm, wire)},
                          {"grad_sum", optionalNumber(p.sum, wire)}});
    if (wire) { // the elements follow in the gradient block (Note [the wire's gradient block])
        out["value_count"] = p.values.size();
        return out;
    }
    Json::Array first;
    for (std::size_t i = 0; i < p.values.size() && i < 5; ++i)
        first.push_back(optionalNumber(p.values[i], wire));
    out["grad_first5"] = Json(std::move(first));
    return out;
}

} // namespace

Json jsonNumber(std::optional<double> value)
{
    return value && std::isfinite(*value) ? Json(*value) : Json(nullptr);
}

Json sideToJson(const StepFigures& f, bool wire)
{
    Json side = Json::object();
    side["label"] = f.label;
    const bool ok = !f.error;
    const bool counted = ok && !f.saved; // a saved run keeps no counts or times
    side["loss"] = ok ? optionalNumber(f.loss, wire) : Json(nullptr);
    side["forward_passes"] = counted ? Json(f.forwardPasses) : Json(nullptr);
    side["returned_value"] = ok ? Json(f.returnedValue) : Json(nullptr);
    side["nodes"] = counted ? Json(f.nodes()) : Json(nullptr);
    side["nodes_by_phase"] = counted ? Json(Json::Object{{"forward", f.forwardNodes},
                                                    {"backward", f.backwardNodes},
                                                    {"update", f.updateNodes}})
                                : Json(nullptr);
    side["seconds"] = counted ? optionalNumber(f.seconds, wire) : Json(nullptr);
    side["run_seconds"] = optionalNumber(f.runSeconds, wire);
    Json params = Json::array();
    for (const ParamGrad& p : f.params)
        params.push_back(paramJson(p, wire));
    side["params"] = ok ? params : Json::array();
    side["steps"] = curveJson(f.steps, wire);
    if (f.error) {
        side["error"] = *f.error;
        if (f.errorLocation && !f.errorLocation->file.empty()) {
            Json where = Json(Json::Object{{"file", f.errorLocation->file},
                                           {"line", f.errorLocation->line},
                                           {"col", f.errorLocation->column}});
            if (wire)
                where["display_file"] = f.errorLocation->displayFile;
            side["error_location"] = std::move(where);
        }
    }
    if (f.laterError)
        side["later_error"] = *f.laterError;
    if (wire) {
        side["started_at"] = f.startedAt;
        side["ended_at"] = f.endedAt;
    }
    return side;
}

StepFigures sideFromJson(const Json& side)
{
    StepFigures f;
    f.label = side["label"].asString();
    if (const Json* error = side.find("error"); error && !error->isNull()) {
        f.error = error->asString();
        if (const Json* where = side.find("error_location"); where && !where->isNull()) {
            run::SourceSpan span;
            span.file = (*where)["file"].asString();
            if (const Json* display = where->find("display_file"))
                span.displayFile = display->asString();
            span.line = static_cast<int>((*where)["line"].asInt());
            span.column = static_cast<int>((*where)["col"].asInt());
            f.errorLocation = span;
        }
    } else {
        f.loss = readOptional(side.find("loss"));
        f.forwardPasses = static_cast<int>(side["forward_passes"].asInt());
        f.returnedValue = side["returned_value"].asBool();
        const Json& phases = side["nodes_by_phase"];
        f.forwardNodes = phases["forward"].asInt();
        f.backwardNodes = phases["backward"].asInt();
        f.updateNodes = phases["update"].asInt();
        f.seconds = readOptional(side.find("seconds")).value_or(0.0);
    }
    f.runSeconds = readOptional(side.find("run_seconds")).value_or(0.0);
    for (const Json& p : side["params"].asArray()) {
        ParamGrad g;
        g.name = p["name"].asString();
        for (const Json& d : p["shape"].asArray())
            g.shape.push_back(d.asInt());
        g.norm = readNumber(p["grad_norm"]);
        g.sum = readNumber(p["grad_sum"]);
        f.params.push_back(std::move(g));
    }
    if (const Json* steps = side.find("steps"))
        f.steps = curveFromJson(*steps);
    if (const Json* later = side.find("later_error"); later && !later->isNull())
        f.laterError = later->asString();
    if (const Json* at = side.find("started_at"))
        f.startedAt = at->asNumber();
    if (const Json* at = side.find("ended_at"))
        f.endedAt = at->asNumber();
    return f;
}

// Note [the wire's gradient block]: a side's first step keeps every gradient element for the
// element-wise diff. Printed as JSON they cost the child about 0.01 s and the waiting parent about
// 0.03 s per side, on the critical path of a comparison that should cost one run; as the raw bytes
// of the doubles they cost a copy, and NaN, infinity and every bit of each value survive as they
// are. The block follows the JSON line (which has no raw newline: JSON escapes them in strings);
// each parameter's "value_count" says how many of its doubles come next. Both processes are the
// same program on the same machine, so the byte order needs no saying.
std::string sideToWire(const StepFigures& f)
{
    std::string out = sideToJson(f, true).dump();
    out += '\n';
    std::size_t bytes = 0;
    for (const ParamGrad& p : f.params)
        bytes += p.values.size() * sizeof(double);
    const std::size_t header = out.size();
    out.resize(header + bytes);
    char* at = out.data() + header;
    for (const ParamGrad& p : f.params) {
        std::memcpy(at, p.values.data(), p.values.size() * sizeof(double));
        at += p.values.size() * sizeof(double);
    }
    return out;
}

StepFigures sideFromWire(std::string_view wire)
{
    const std::size_t newline = wire.find('\n');
    if (newline == std::string_view::npos)
        throw ValueError("a comparison side: no line ends its JSON part");
    const Json side = Json::parse(wire.substr(0, newline));
    StepFigures f = sideFromJson(side);
    std::string_view block = wire.substr(newline + 1);
    const Json::Array& params = side["params"].asArray();
    for (std::size_t i = 0; i < f.params.size() && i < params.size(); ++i) {
        const Json* count = params[i].find("value_count");
        const auto n = count ? static_cast<std::size_t>(count->asInt()) : 0;
        if (block.size() < n * sizeof(double))
            throw ValueError("a comparison side: the gradient block ends inside '" + f.params[i].name + "'");
        f.params[i].values.resize(n);
        std::memcpy(f.params[i].values.data(), block.data(), n * sizeof(double));
        block.remove_prefix(n * sizeof(double));
    }
    if (!block.empty())
        throw ValueError("a comparison side: " + std::to_string(block.size())
                         + " bytes follow the last gradient");
    return f;
}

StepFigures sideFromRunReport(const Json& report, const std::string& label)
{
    if (!report.isObject() || !report.contains("steps"))
        throw ValueError("not a gradstep run report: it has no \"steps\" (write one with "
                         "`gradstep run SCRIPT --steps N --report FILE.json`)");
    StepFigures f;
    f.label = label;
    f.saved = true;
    f.steps = curveFromJson(report["steps"]);
    if (f.steps.empty()) {
        f.error = "the saved run has no training step";
        return f;
    }
    f.loss = f.steps.front().loss;
    f.returnedValue = f.loss.has_value();
    // The first step's gradients are known by their norms only: diffGradients compares those.
    const Json& first = report["steps"][0];
    for (const Json& p : first["params"].asArray()) {
        ParamGrad g;
        g.name = p["name"].asString();
        if (const Json* shape = p.find("shape"))
            for (const Json& d : shape->asArray())
                g.shape.push_back(d.asInt());
        g.norm = readOptional(p.find("grad_norm")).value_or(std::nan(""));
        g.sum = readOptional(p.find("grad_sum")).value_or(std::nan(""));
        f.params.push_back(std::move(g));
    }
    return f;
}

} // namespace gradstep::session
