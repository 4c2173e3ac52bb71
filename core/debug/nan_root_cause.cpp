// NaN root cause. Once the recorder saw every node, the first record with a non-finite output
// either had only finite inputs (it is the cause) or received the bad value from outside the
// records: nothing earlier in the list produced it non-finite, or it would have come first.
// SPDX-License-Identifier: MIT
#include "debug/nan_root_cause.h"

namespace gradstep::debug {

namespace {

std::string counts(const TensorStats& s)
{
    return std::to_string(s.nanCount) + " NaN, " + std::to_string(s.posInfCount) + " +Inf, "
           + std::to_string(s.negInfCount) + " -Inf";
}

std::string inputsText(const NodeRecord& r)
{
    std::string s;
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
        if (!r.inputs[i].defined)
            continue;
        s += (s.empty() ? "" : "; ") + std::string("input ") + std::to_string(i) + " ("
             + r.inputs[i].id.toString() + ") " + r.inputs[i].stats.summary();
    }
    return s.empty() ? "no inputs" : s;
}

std::string origin(const TensorRecord& in, std::span<const RecordPtr> records)
{
    switch (in.id.kind) {
    case TensorId::Kind::Parameter: return "parameter '" + in.id.name + "'";
    case TensorId::Kind::External:
        return "a tensor no recorded node produced (input data, a constant, or a sum of gradients "
               "inside the engine)";
    case TensorId::Kind::Output: break;
    }
    for (const RecordPtr& r : records)
        if (r->seq == in.id.node)
            return "output " + in.id.toString() + " of " + r->where()
                   + ", finite when produced and changed in place since";
    return "output " + in.id.toString() + " of a node outside these records (an earlier step)";
}

std::string phaseText(const NodeRecord& r) { return std::string(phaseName(r.phase)) + " phase"; }

NanRootCause producedBy(const RecordPtr& r, std::size_t output)
{
    NanRootCause cause;
    cause.kind = NanRootCause::Kind::ProducedByNode;
    cause.record = r;
    cause.output = output;
    cause.message = "NaN/Inf first produced by " + r->op + " at " + r->where() + ", " + phaseText(*r)
                    + ", step " + std::to_string(r->step) + ": output " + std::to_string(output)
                    + " has " + counts(r->outputs[output].stats)
                    + "; its inputs were finite: " + inputsText(*r);
    return cause;
}

NanRootCause enteredThrough(const RecordPtr& r, std::size_t output, std::size_t input,
                            std::span<const RecordPtr> records)
{
    NanRootCause cause;
    cause.kind = NanRootCause::Kind::NonFiniteInput;
    cause.record = r;
    cause.output = output;
    cause.input = input;
    const TensorRecord& in = r->inputs[input];
    cause.message = "NaN/Inf was already in input " + std::to_string(input) + " (" + in.id.toString()
                    + ", " + counts(in.stats) + ") of " + r->op + " at " + r->where() + ", "
                    + phaseText(*r) + ", step " + std::to_string(r->step) + ": it came from "
                    + origin(in, records);
    return cause;
}

} // namespace

std::optional<NanRootCause> findNanRootCause(std::span<const RecordPtr> records)
{
    for (const RecordPtr& r : records) {
        std::optional<std::size_t> output;
        for (std::size_t i = 0; i < r->outputs.size() && !output; ++i)
            if (r->outputs[i].defined && !r->outputs[i].stats.allFinite())
                output = i;
        if (!output)
            continue;
        for (std::size_t i = 0; i < r->inputs.size(); ++i)
            if (r->inputs[i].defined && !r->inputs[i].stats.allFinite())
                return enteredThrough(r, *output, i, records);
        return producedBy(r, *output);
    }
    return std::nullopt;
}

} // namespace gradstep::debug
