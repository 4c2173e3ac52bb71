// The step debugger's heart: one script run under control. Every GUI action and every
// `gradstep debug` option is a call here. No Python or Qt header here.
//
// Threads: the script runs on a ScriptRunner worker; the Session's observer pauses it after a
// node finished (the node's outputs are recorded, it is the current node) by waiting without
// the GIL. Commands return at once and may come from any thread; state() is a consistent
// snapshot readable from any thread at any time. The listener is called on the worker (at a
// pause), on the Session's monitor thread (end of the run) or on the caller's thread (time
// travel), holding no lock and no GIL: a GUI marshals it to its own thread. From inside it,
// commands that return at once are fine; load, restart and a re-running jumpTo wait for the old
// run and must be posted to another thread. The Python Host must be running
// (python::Host::start()) before load().
//
// Pauses are honoured between nodes: a pause() lands after the node running now finished, or
// at the next op when the script runs plain Python in between. SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>

namespace gradstep::debug {

class Session {
public:
    using Listener = std::function<void(const SessionState&)>;

    explicit Session(SessionOptions options);
    /// Cancels a running script and waits for it.
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Called at every pause and at the end of the run (see the header comment for threads).
    void setListener(Listener listener);

    /// Starts the script with `first` as its first command (default: pause after the first
    /// node). ValueError for a bad breakpoint or watchpoint text, RuntimeError when a run is
    /// active or the Host is not running.
    void load(RunCommand first = {});
    /// Runs `command` from the current pause; false (and nothing happens) unless paused.
    /// While time-travelling, StepInto moves the view one record forward instead of running.
    bool resume(RunCommand command);
    bool stepInto() { return resume(RunCommand::of(RunCommand::Kind::StepInto)); }
    bool stepOver() { return resume(RunCommand::of(RunCommand::Kind::StepOver)); }
    bool stepOut() { return resume(RunCommand::of(RunCommand::Kind::StepOut)); }
    bool continueRun() { return resume(RunCommand::of(RunCommand::Kind::Continue)); }
    bool runToEndOfStep() { return resume(RunCommand::of(RunCommand::Kind::EndOfStep)); }
    bool runSteps(int n) { return resume(RunCommand::of(RunCommand::Kind::Steps, n)); }
    /// Asks a running script to pause after the node running now; safe from any thread.
    void pause();
    /// Stops the script (at its next bytecode); returns at once. Ends as Cancelled.
    void cancel();
    /// Loads and re-runs silently (the run is deterministic: the same options and seed) to record
    /// `seq` of training step `step`, and pauses there; at the first node past it when the script
    /// no longer gets there. Returns to where the user was after the session had to stop.
    void loadAt(std::int64_t step, std::uint64_t seq);
    /// Cancels the run, waits for it, forgets the recording and loads again with the same
    /// options (the same seed, so the same values).
    void restart(RunCommand first = {});

    // Time travel within the current step, from the recording: the view moves, the script
    // stays where it is. False when not paused or there is no such record.
    bool stepBack();
    /// Shows record `seq` of the current step as it was then. When the memory cap dropped its
    /// output snapshots, re-runs the script deterministically up to that node instead (the
    /// session then is live there: wait for the pause).
    bool jumpTo(std::uint64_t seq);
    /// Back to the live node.
    bool returnToLive();
    /// The first record of the current step that satisfies `condition`: a breakpoint text
    /// ("op:Conv2D", "tensor:max_abs>1e3", "main.py:12") or a watchpoint item ("nan",
    /// "exploding=1e3"). Null when none; ValueError for a bad text.
    RecordPtr findFirst(std::string_view condition) const;
    RecordPtr findFirst(const RecordPredicate& predicate) const;
    /// findFirst, then jumpTo it.
    RecordPtr jumpToFirst(std::string_view condition);

    /// Waits until the session is not Running; false on timeout.
    bool waitForPause(std::chrono::milliseconds timeout) const;
    SessionStatus status() const;
    std::shared_ptr<const SessionState> state() const;

    // Breakpoints and watchpoints may change at any time; they apply from the next node.
    int addBreakpoint(std::string_view text);
    bool removeBreakpoint(int id);
    bool setBreakpointEnabled(int id, bool enabled);
    std::vector<Breakpoint> breakpoints() const;
    std::vector<int> addWatchpoints(std::string_view list);
    bool removeWatchpoint(int id);
    bool setWatchpointEnabled(int id, bool enabled);
    std::vector<Watchpoint> watchpoints() const;

    /// The recording: snapshots of tensors, earlier steps' records, drop reports.
    const Recorder& recorder() const;
    void setMemoryCap(std::size_t bytes);
    const SessionOptions& options() const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace gradstep::debug
