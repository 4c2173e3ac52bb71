// What one rank of `debug --ranks` says of itself at a pause, and the values it hands over: the
// messages of the ranks' protocol (rank_wire.h) as structs, both ways. No Python or Qt header.
// SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"
#include "session/rank_wire.h"
#include "session/session_state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::session {

/// Where a rank is: paused at a node (or finished, failed, cancelled).
struct RankPause {
    int rank = 0;
    std::string status;    ///< sessionStatusName: "paused", "finished", "failed", ...
    std::string reason;    ///< pauseReasonName: "step", "breakpoint", ...
    std::string condition; ///< the breakpoint or watchpoint that stopped it
    std::int64_t step = 0;
    std::uint64_t seq = 0; ///< the live node's record number (0: not at a node)
    std::string node;      ///< "DistributedGradReducer/AllReduce"
    std::string op;        ///< "AllReduce"
    std::string phase;     ///< "forward", "backward", "update"
    std::string location;  ///< "samples/data_parallel.py:81:13"
    std::uint64_t nodesExecuted = 0;
    /// Collectives of the world the rank completed (dist::worldCollectivesCompleted).
    std::int64_t collectives = 0;
    std::string diagnostic; ///< a failed script's error, formatted as the CLI prints it
    /// The live node's tensors the rank can hand over: "output 0", "input 1", ...
    std::vector<std::string> tensors;

    bool atNode() const { return status == "paused" && seq != 0; }
    /// Paused at the same node of the same step.
    bool sameNode(const RankPause& other) const
    {
        return atNode() && other.atNode() && step == other.step && seq == other.seq;
    }
    /// "node #35 of step 1: DistributedGradReducer/AllReduce (AllReduce, forward) at FILE:81:13",
    /// or "finished", "failed", ...
    std::string describe() const;
};

/// A shape as a JSON array of its dimensions.
Json rankShapeJson(const Shape& shape);

/// The pause as the rank sends it.
Json rankPauseToJson(int rank, const debug::SessionState& state);
RankPause rankPauseFromJson(const Json& json);

/// One line: whether all ranks paused at the same node (naming it), else where each one is.
std::string ranksAgreementText(const std::vector<RankPause>& pauses);
bool ranksAtSameNode(const std::vector<RankPause>& pauses);

/// A tensor's values on one rank.
struct RankTensor {
    int rank = 0;
    std::string name;               ///< as asked: "output 0", "#35:0", "grad:fc1.weight"
    std::string label;              ///< what it is: "output 0 of DistributedGradReducer/AllReduce"
    std::vector<std::int64_t> shape;
    std::string dtype;              ///< "Float32"
    std::vector<double> values;     ///< every element, row-major
    std::string error;              ///< why there are no values (no such tensor, no snapshot)
};

/// The tensor message: `name` is "output K" or "input K" of the live node, "#SEQ:K" (output K of
/// record SEQ of the current step) or "grad:PARAM" (the rank's own gradient of a parameter).
RankMessage rankTensorMessage(int rank, const debug::SessionState& state, const std::string& name);
RankTensor rankTensorFromMessage(const RankMessage& message);

/// A parameter's gradient on one rank in the current step: the rank's own (from its gradient
/// call, before the all-reduce) and, once the step's all-reduce ran, the all-reduced one its
/// optimizer receives.
struct RankGradient {
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<double> local;
    std::optional<std::vector<double>> reduced;
};

/// The gradients message: the current step's parameter gradients of `state` (none before its
/// gradient call returned), with the all-reduced values found in its records.
RankMessage rankGradientsMessage(int rank, const debug::SessionState& state);
std::vector<RankGradient> rankGradientsFromMessage(const RankMessage& message);

} // namespace gradstep::session
