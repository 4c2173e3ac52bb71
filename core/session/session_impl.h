// The Session's private parts, shared by session.cpp (control, any thread), session_worker.cpp
// (the observer on the script's worker) and session_travel.cpp (time travel).
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"
#include "python/user_files.h"
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

private:
    Session::Impl& m_impl;
};

struct Session::Impl {
    explicit Impl(SessionOptions o);

    SessionOptions options;
    python::UserFiles files;
    Recorder recorder;
    SessionObserver observer{*this};
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
    std::string neverStoppedLines() const;
    bool commandDone(const NodeRecord& r);
    /// Where the script is: a backward node's record carries its forward node's location, but
    /// the script is at the gradient call (StepOver compares lines the user is on).
    SourceLocation liveLocation(const NodeRecord& r) const;
    void decide(const RecordPtr& r);
    void pauseAt(PauseInfo why, std::optional<std::uint64_t> view);
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

    // Time travel (session_travel.cpp).
    bool showRecord(const RecordPtr& r);
};

/// User frames on the calling thread's Python stack (0 without the GIL). session_depth.cpp.
int userFrameDepth(const python::UserFiles& files);

} // namespace gradstep::debug
