// What a side's child process is asked to run, as JSON both ways (compare_processes.h): the side
// with every what-if switch, and the options that reach a run. SPDX-License-Identifier: MIT
#include "session/compare_processes.h"

#include "tensor/errors.h"

#include <array>
#include <utility>

namespace gradstep::session {

namespace {

template <class Enum, std::size_t N>
const char* nameOf(Enum value, const std::array<std::pair<Enum, const char*>, N>& names)
{
    for (const auto& [v, name] : names)
        if (v == value)
            return name;
    return names.front().second;
}

template <class Enum, std::size_t N>
Enum valueOf(const Json& request, const char* key, const std::array<std::pair<Enum, const char*>, N>& names)
{
    const std::string& text = request[key].asString();
    for (const auto& [v, name] : names)
        if (text == name)
            return v;
    throw ValueError(std::string("a side request: unknown ") + key + " '" + text + "'");
}

constexpr std::array<std::pair<run::HasAuxOverride, const char*>, 3> kHasAux{
    {{run::HasAuxOverride::AsWritten, "as-written"}, {run::HasAuxOverride::On, "on"}, {run::HasAuxOverride::Off, "off"}}};
constexpr std::array<std::pair<run::GradApiOverride, const char*>, 3> kGradApi{
    {{run::GradApiOverride::AsWritten, "as-written"},
     {run::GradApiOverride::ValueAndGrad, "value-and-grad"},
     {run::GradApiOverride::GradFallback, "grad-fallback"}}};
constexpr std::array<std::pair<run::ModeOverride, const char*>, 3> kMode{
    {{run::ModeOverride::AsWritten, "as-written"}, {run::ModeOverride::PyNative, "pynative"}, {run::ModeOverride::Graph, "graph"}}};
constexpr std::array<std::pair<run::AmpOverride, const char*>, 3> kAmp{
    {{run::AmpOverride::AsWritten, "as-written"}, {run::AmpOverride::O0, "o0"}, {run::AmpOverride::O2, "o2"}}};

} // namespace

Json sideRequestToJson(const CompareSide& side, const CompareOptions& options)
{
    Json::Array args(options.args.begin(), options.args.end());
    Json request(Json::Object{{"label", side.label},
                              {"script", side.script.string()},
                              {"api", side.apiProfile},
                              {"has_aux", nameOf(side.overrides.hasAux, kHasAux)},
                              {"grad_api", nameOf(side.overrides.gradApi, kGradApi)},
                              {"mode", nameOf(side.overrides.mode, kMode)},
                              {"amp", nameOf(side.overrides.amp, kAmp)},
                              {"finite_differences", side.finiteDifferences},
                              // A seed is an integer of up to 64 bits: a JSON number (a double)
                              // would round it.
                              {"seed", std::to_string(options.seed)},
                              {"steps", options.steps},
                              {"timeout_ms", static_cast<double>(options.timeout.count())},
                              {"args", Json(std::move(args))}});
    if (side.overrides.checkpoint)
        request["checkpoint"] = *side.overrides.checkpoint;
    return request;
}

std::pair<CompareSide, CompareOptions> sideRequestFromJson(const Json& request)
{
    CompareSide side;
    side.label = request["label"].asString();
    side.script = request["script"].asString();
    side.apiProfile = request["api"].asString();
    side.overrides.hasAux = valueOf(request, "has_aux", kHasAux);
    side.overrides.gradApi = valueOf(request, "grad_api", kGradApi);
    side.overrides.mode = valueOf(request, "mode", kMode);
    side.overrides.amp = valueOf(request, "amp", kAmp);
    side.finiteDifferences = request["finite_differences"].asBool();
    if (const Json* checkpoint = request.find("checkpoint"))
        side.overrides.checkpoint = checkpoint->asString();
    CompareOptions options;
    try {
        options.seed = std::stoull(request["seed"].asString());
    } catch (const std::logic_error&) {
        throw ValueError("a side request: the seed '" + request["seed"].asString() + "' is not a whole number");
    }
    options.steps = request["steps"].asInt();
    options.timeout = std::chrono::milliseconds(request["timeout_ms"].asInt());
    for (const Json& arg : request["args"].asArray())
        options.args.push_back(arg.asString());
    options.warmUp = false; // one side per process: nothing to make fair
    return {side, options};
}

} // namespace gradstep::session
