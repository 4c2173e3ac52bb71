// What a debugging Session is told to do and what it shows at a pause: options, run commands,
// status, why it paused, and the state snapshot the GUI reads. No Python or Qt header here.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/breakpoints.h"
#include "debug/nan_root_cause.h"
#include "debug/recorder.h"
#include "debug/watchpoints.h"
#include "graph/graph.h"
#include "run/diagnostic.h"
#include "run/run_overrides.h"
#include "run/script_output.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::debug {

/// Full: stats and snapshots of every tensor of the current step (under the memory cap).
/// StatsOnly: stats, no snapshots. Off: nothing is recorded; the current node is known (op,
/// scope, phase, location) but carries no tensors, and value watchpoints and the NaN search see
/// nothing; step summaries keep the loss and per-parameter stats without histograms.
/// Histograms of recorded tensors are filled from the snapshots when a node is shown (paused
/// at or travelled to); others keep TensorStats::hasHistogram false.
enum class Recording : std::uint8_t { Full, StatsOnly, Off };

struct SessionOptions {
    std::filesystem::path script;
    std::vector<std::string> args;          ///< sys.argv[1:]
    std::string apiProfile = "2.x";         ///< "2.x" or "1.10"
    run::RunOverrides overrides;         ///< has_aux, gradient API, mode, seed
    std::size_t memoryCapBytes = std::size_t{1} << 30;
    Recording recording = Recording::Full;
    std::vector<std::string> breakpoints;   ///< parseBreakpoint texts ("main.py:12", "op:Log")
    std::vector<std::string> watchpoints;   ///< --watch lists ("nan,exploding=1e3")
    run::OutputCallback output;          ///< what the script prints; null drops it
    std::chrono::milliseconds timeout{0};   ///< 0: no limit
};

/// A command that runs the script until it is done (or a breakpoint, watchpoint, NaN, pause
/// request or the end comes first). Every pause is after a node finished: its outputs are
/// recorded and it is the current node.
struct RunCommand {
    enum class Kind : std::uint8_t {
        StepInto,  ///< the next node: forward op, backward op or optimizer update op
        StepOver,  ///< the next node on another source line at the same or a shallower user depth
        StepOut,   ///< forward inside a function: until it returned; else until the phase changes
        Continue,  ///< until a breakpoint, watchpoint, NaN or the end
        EndOfStep, ///< until the current training step ended (after the optimizer update)
        Steps,     ///< until `steps` training steps ended (the current one counts)
    };
    Kind kind = Kind::StepInto;
    int steps = 1;

    static RunCommand of(Kind kind, int steps = 1) { return {kind, steps}; }
};

const char* runCommandName(RunCommand::Kind kind);

enum class SessionStatus : std::uint8_t { Idle, Running, Paused, Finished, Failed, Cancelled };
const char* sessionStatusName(SessionStatus status);

enum class PauseReason : std::uint8_t {
    None,       ///< running, or never loaded
    Command,    ///< the step command (or run to end of step / N steps, or a jump) is done
    Pause,      ///< pause() from another thread
    Breakpoint,
    Watchpoint,
    Nan,        ///< the nan watchpoint: paused with the view on the root-cause node
    End,        ///< the script finished
    Error,      ///< the script raised; see SessionState::diagnostic
    Cancelled,
};
/// "step", "pause", "breakpoint", "watchpoint", "nan", "end", "error", "cancelled", "none".
const char* pauseReasonName(PauseReason reason);

struct PauseInfo {
    PauseReason reason = PauseReason::None;
    std::string condition;               ///< "op:Log", "main.py:12", "nan", "exploding=1000"
    std::string message;                 ///< one sentence for the status line
    std::optional<Hit> breakpoint;
    std::vector<WatchHit> watchHits;
    std::optional<NanRootCause> nanRootCause;
};

/// A parameter's gradient of the current step, once the step's gradient call returned.
struct ParameterGradient {
    std::string name;
    Tensor gradient;  ///< may be undefined (a parameter the loss does not depend on)
    TensorStats stats;
    double weightNorm = std::numeric_limits<double>::quiet_NaN(); ///< the parameter's value now
};

/// One compilation of a function or Cell for graph mode (a GraphCompileEvent), with a copy of the
/// optimised graph that runs. A second compile of a function is for a new input signature.
struct CompiledGraph {
    std::uint64_t id = 0;              ///< 1-based, in compile order; GraphNodeRef::graph
    std::string function;              ///< "forward_fn", "Net.construct"
    std::string signature;             ///< "f32[4, 3]"
    std::size_t compiles = 0;          ///< compilations of this function so far (> 1: recompiled)
    bool gradient = false;             ///< forward + backward graph of a gradient call
    double milliseconds = 0.0;
    std::int64_t step = 0;             ///< the training step that compiled it
    std::shared_ptr<const Graph> graph;
};

/// Graph nodes by the current step's records: Executed ran (in the graph's latest run this
/// step), Current is the shown node or a node whose branch, body or members are running, Pending
/// has not run yet.
enum class GraphNodeMark : std::uint8_t { Pending, Executed, Current };

/// A compiled graph that ran in the current step, with one mark per graph node (by NodeId).
struct ExecutedGraph {
    std::shared_ptr<const CompiledGraph> compiled;
    std::vector<GraphNodeMark> marks;
};

/// The compiled graphs the records ran in, in order of first use, marked by those records.
/// `nodeIsCurrent`: the last record is the node paused at (false at the end of a step or run,
/// when every node that ran is Executed). Compiled graphs are found by id in `compiled`.
std::vector<ExecutedGraph>
executedGraphs(const std::vector<RecordPtr>& records,
               const std::vector<std::shared_ptr<const CompiledGraph>>& compiled,
               bool nodeIsCurrent);

/// Everything shown at a pause, immutable and cheap to share: the GUI thread reads it while the
/// worker waits. `node` is the node shown: the live one, or with time travel an earlier record.
struct SessionState {
    SessionStatus status = SessionStatus::Idle;
    PauseInfo why;
    std::int64_t step = 0;                 ///< 1-based training step being executed
    RecordPtr node;                        ///< the node shown (null before the first node)
    RecordPtr liveNode;                    ///< where the script actually is paused
    /// Paused at a line breakpoint before the line runs (`node` is then the last node that ran
    /// before it, maybe on another line): that line. Empty at a pause after a node.
    std::optional<SourceLocation> line;
    bool timeTravel = false;               ///< node is an earlier record than liveNode
    int userDepth = 0;                     ///< user frames on the stack at the live node
    /// The user's frames at the live node, outermost first, with their variables.
    std::vector<run::StackFrame> stack;
    /// The current step's records up to and including `node`, in execution order.
    std::vector<RecordPtr> records;
    std::vector<ParameterGradient> gradients;
    double loss = std::numeric_limits<double>::quiet_NaN(); ///< the current step's, once known
    std::vector<StepSummary> history;      ///< finished steps, oldest first
    DropReport dropped;                    ///< snapshots of the current step lost to the cap
    std::uint64_t nodesExecuted = 0;       ///< nodes finished since the run started
    /// Graph mode: every compilation of the run so far, oldest first (CompiledGraph::id order).
    std::vector<std::shared_ptr<const CompiledGraph>> compiledGraphs;
    /// Graph mode: the compiled graphs that ran in the current step up to `node`, marked.
    /// Empty in PyNative mode.
    std::vector<ExecutedGraph> graphs;
    std::optional<run::Diagnostic> diagnostic; ///< Failed: the script's error; Cancelled: where a
                                               ///< script was given up on, blocked
};

} // namespace gradstep::debug
