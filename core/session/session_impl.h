// The Session's private parts, shared by session.cpp (control, any thread), session_worker.cpp
// (the observer on the script's worker) and session_travel.cpp (time travel).
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"
#include "python/host/line_listener.h"
#include "python/host/script_runner.h"
#include "python/host/user_files.h"
#include "session/session.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace gradstep::debug {

/// Where the script paused: what StepOver and StepOut compare later nodes with.
struct PausePoint {
    std::string file;
    int line = 0;
    int depth = 0;
    Phase phase = Phase::Forward;
    std::int64_t step = 0;
};

/// A command as the worker runs it: the public one, or a replay to a node (time travel).
struct ActiveCommand {
    RunCommand command;
    PausePoint from;
    int stepsLeft = 1;
    bool replay = false;             ///< run silently to (targetStep, targetSeq)
    std::int64_t targetStep = 0;
    std::uint64_t targetSeq = 0;
};

/// State only the worker thread touches while a run is active (the monitor reads it after).
struct WorkerState {
    std::int64_t step = 1;
    bool stepEnded = false;
    bool gradDone = false;
    double loss = std::numeric_limits<double>::quiet_NaN();
    std::vector<Parameter> weights;
    std::vector<Tensor> weightGrads;
    std::optional<LossScaleEvent> lossScale; ///< the step's, until the recorder's summary keeps it
    RecordPtr previous;
    RecordPtr current;
    std::uint64_t lastSeq = 0;       ///< the newest record seen
    std::uint64_t lightSeq = 0;      ///< Recording::Off: our own record numbers
    std::uint64_t nodes = 0;
    std::int64_t nanQuietStep = 0;   ///< the nan watchpoint reported this step already
    ActiveCommand active;
    /// Graph mode (session_graphs.cpp): the run's compilations; where each compiled graph's
    /// nodes live (the executor's graph in the compile cache, which outlives the run's events);
    /// the top-level graph nodes started and not finished, innermost last.
    std::vector<std::shared_ptr<const CompiledGraph>> compiled;
    struct GraphNodes {
        const GraphNode* first = nullptr;
        std::size_t count = 0;
        std::uint64_t id = 0;
    };
    std::vector<GraphNodes> graphNodes;
    std::vector<GraphNodeRef> runningGraphNodes;
    /// The line a line breakpoint stopped at before it ran, in its frame: the ops that line runs
    /// belong to the same arrival and must not stop again for that breakpoint.
    struct LineArrival {
        const void* frame = nullptr;
        std::shared_ptr<const std::string> file;
        int line = 0;
        int breakpoint = 0;
    };
    LineArrival lineArrival;
};

class SessionObserver : public ExecutionObserver {
public:
    explicit SessionObserver(Session::Impl& impl) : m_impl(impl) {}
    void nodeStarted(const NodeEvent& event) override;
    void nodeFinished(const NodeEvent& event) override;
    void gradCallStarted(const GradCallEvent& event) override;
    void gradCallFinished(const GradCallEvent& event) override;
    void updateStarted(const UpdateEvent& event) override;
    void updateFinished(const UpdateEvent& event) override;
    void graphCompiled(const GraphCompileEvent& event) override;
    void lossScaleReported(const LossScaleEvent& event) override;
    void nodeTangents(const TangentEvent& event) override;

private:
    Session::Impl& m_impl;
};

class SessionLines : public python::LineListener {
public:
    explicit SessionLines(Session::Impl& impl) : m_impl(impl) {}
    bool wantsLines() const override;
    void lineReached(const std::shared_ptr<const std::string>& file, int line, const void* frame) override;
    void lineTraceDisplaced() override;

private:
    Session::Impl& m_impl;
};

struct Session::Impl {
    explicit Impl(SessionOptions o);

    SessionOptions options;
    python::UserFiles files;
    Recorder recorder;
    SessionObserver observer{*this};
    SessionLines lines{*this};
    python::ScriptRunner runner;
    std::thread monitor;

    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    SessionStatus status = SessionStatus::Idle;
    std::shared_ptr<const SessionState> state = std::make_shared<SessionState>();
    std::shared_ptr<const SessionState> liveState = state; ///< the pause before any time travel
    std::optional<ActiveCommand> next;  ///< set by resume(), taken by the paused worker
    Listener listener;

    mutable std::mutex pointsMutex;
    BreakpointSet breakpoints;
    WatchpointSet watchpoints;
    std::atomic<bool> anyPoints{false};
    std::atomic<bool> anyLinePoints{false};     ///< the script's lines are traced
    std::atomic<bool> lineTraceDisplaced{false}; ///< the script's own sys.settrace replaced ours
    std::vector<int> scriptLines;               ///< lines of the script with code, sorted (pointsMutex)

    std::atomic<bool> pauseRequested{false};
    std::atomic<bool> cancelling{false};
    /// Read on the worker per node without the lock: Continue with no points and no pause
    /// request needs no record at all with Recording::Off.
    std::atomic<bool> continuing{false};

    WorkerState w;

    // Worker side (session_worker.cpp).
    void onNodeFinished(const NodeEvent& event);
    RecordPtr lightRecord(const NodeEvent& event);
    void beginStepIfNeeded();
    /// `update`: the optimizer update that ended the step (null: the step ended otherwise).
    void endStep(const UpdateEvent* update);
    /// "; breakpoint 2 (main.py:34) never stopped: ..." for each enabled line breakpoint that
    /// never fired in the run; empty when all did.
    std::string neverStoppedLines();
    bool commandDone(const NodeRecord& r);
    /// Where the script is: a backward node's record carries its forward node's location, but
    /// the script is at the gradient call (StepOver compares lines the user is on).
    SourceLocation liveLocation(const NodeRecord& r) const;
    void decide(const RecordPtr& r);
    void onLine(const std::shared_ptr<const std::string>& file, int line, const void* frame);
    /// `line`: paused at a line before it runs (a line breakpoint), not after a node.
    void pauseAt(PauseInfo why, std::optional<std::uint64_t> view, std::optional<SourceLocation> line = std::nullopt);
    std::shared_ptr<SessionState> buildState(SessionStatus s, PauseInfo why) const;

    // Graph mode (session_graphs.cpp).
    std::optional<GraphNodeRef> resolveGraphNode(const GraphNode& node) const;
    /// Around every node event: keeps runningGraphNodes (nested nodes resolve to them).
    void graphNodeStarted(const NodeEvent& event);
    void graphNodeFinished(const NodeEvent& event);

    // Control side (session.cpp).
    void start(ActiveCommand first);
    void monitorMain();
    void finishRun(const python::RunResult& result);
    void publish(std::shared_ptr<const SessionState> s, bool live);
    void notify(const std::shared_ptr<const SessionState>& s);
    void stopAndJoin();
    void refreshPoints();
    /// Marks line breakpoints that cannot stop: on a line of the script without code, or (after a
    /// run, `finished`) on a line that never ran. Under pointsMutex.
    void verifyLines(bool finished);
    std::string lineProblem(const Breakpoint& bp, bool finished) const;

    // Time travel (session_travel.cpp).
    bool showRecord(const RecordPtr& r);
};

} // namespace gradstep::debug
