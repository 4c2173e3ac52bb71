// The gradients message of a rank. Note [local and all-reduced gradients]: a data-parallel step
// computes each rank's own gradients (its gradient call: SessionState::gradients), then
// DistributedGradReducer all-reduces each one (an AllReduce node, followed by a Div node with
// gradients_mean) and the optimizer takes the result. The all-reduced value is the output of
// those nodes in the step's records: the AllReduce whose input is the gradient a backward node
// produced for the parameter (TensorRecord::gradientOf), else, for a gradient the engine summed
// over several uses (no producing record), the AllReduce at the same position among the step's
// AllReduces as the gradient among the parameters that have one. Before the all-reduce ran in
// this step there is no reduced value yet. SPDX-License-Identifier: MIT
#include "session/rank_state.h"

#include <map>

namespace gradstep::session {

namespace {

const debug::NodeRecord* recordOf(const std::vector<debug::RecordPtr>& records, std::uint64_t seq)
{
    for (const debug::RecordPtr& r : records)
        if (r->seq == seq)
            return r.get();
    return nullptr;
}

/// The parameter whose gradient `id` is, when a recorded backward node produced it.
std::string parameterOfGradient(const std::vector<debug::RecordPtr>& records, const debug::TensorId& id)
{
    if (id.kind != debug::TensorId::Kind::Output)
        return {};
    const debug::NodeRecord* producer = recordOf(records, id.node);
    if (!producer || id.output >= producer->outputs.size())
        return {};
    const auto& of = producer->outputs[id.output].gradientOf;
    return of && of->kind == debug::TensorId::Kind::Parameter ? of->name : std::string();
}

/// What the optimizer receives of AllReduce record `at`: its output, divided by the ranks when a
/// Div node takes it next (gradients_mean); null while that is not known yet.
const debug::TensorRecord* reducedResult(const std::vector<debug::RecordPtr>& records, std::size_t at)
{
    if (at + 1 == records.size()) // paused at the AllReduce itself: its Div may come next
        return nullptr;
    const debug::NodeRecord& reduce = *records[at];
    const debug::TensorId out = debug::TensorId::ofOutput(reduce.seq, 0);
    for (std::size_t i = at + 1; i < records.size(); ++i) {
        const debug::NodeRecord& r = *records[i];
        if ((r.op == "Div" || r.op == "RealDiv") && !r.inputs.empty() && r.inputs[0].id == out && !r.outputs.empty())
            return &r.outputs[0];
    }
    return &reduce.outputs[0];
}

} // namespace

RankMessage rankGradientsMessage(int rank, const debug::SessionState& state)
{
    const auto& records = state.records;
    std::map<std::string, const debug::TensorRecord*> reduced;
    std::vector<const debug::TensorRecord*> unnamed; // AllReduces of gradients no record produced
    for (std::size_t i = 0; i < records.size(); ++i) {
        const debug::NodeRecord& r = *records[i];
        if (r.op != "AllReduce" || r.inputs.empty() || r.outputs.empty() || r.phase == Phase::Backward)
            continue;
        const std::string name = parameterOfGradient(records, r.inputs[0].id);
        const debug::TensorRecord* result = reducedResult(records, i);
        if (!result)
            continue;
        if (!name.empty() && !reduced.count(name))
            reduced[name] = result;
        else if (name.empty())
            unnamed.push_back(result);
    }
    Json::Array params;
    std::string block;
    std::size_t nextUnnamed = 0;
    for (const debug::ParameterGradient& g : state.gradients) {
        if (!g.gradient.defined())
            continue;
        const debug::TensorRecord* result = nullptr;
        if (auto it = reduced.find(g.name); it != reduced.end())
            result = it->second;
        else if (nextUnnamed < unnamed.size() && unnamed[nextUnnamed]->stats.shape == g.gradient.shape())
            result = unnamed[nextUnnamed++];
        Json p(Json::Object{{"name", g.name}, {"shape", rankShapeJson(g.gradient.shape())}, {"count", g.gradient.numel()}});
        block += doublesToBlock(g.gradient.toDoubles());
        const bool haveReduced = result && result->snapshot.defined() && result->snapshot.numel() == g.gradient.numel();
        p["reduced"] = haveReduced;
        if (haveReduced)
            block += doublesToBlock(result->snapshot.toDoubles());
        params.push_back(std::move(p));
    }
    RankMessage m;
    m.header = Json(Json::Object{{"rank", rank}, {"step", state.step}, {"params", Json(std::move(params))}});
    m.block = std::move(block);
    return m;
}

std::vector<RankGradient> rankGradientsFromMessage(const RankMessage& message)
{
    std::vector<RankGradient> out;
    std::size_t at = 0;
    for (const Json& p : message.header["params"].asArray()) {
        RankGradient g;
        g.name = p["name"].asString();
        for (const Json& d : p["shape"].asArray())
            g.shape.push_back(d.asInt());
        const auto count = static_cast<std::size_t>(p["count"].asInt());
        g.local = doublesFromBlock(message.block, at, count);
        at += count * sizeof(double);
        if (p["reduced"].asBool()) {
            g.reduced = doublesFromBlock(message.block, at, count);
            at += count * sizeof(double);
        }
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace gradstep::session
