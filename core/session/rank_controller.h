// Steps N ranks of a data-parallel script together: the controller behind `gradstep debug --ranks
// N --interactive` and the window's Ranks panel. It starts the ranks (mpirun running `gradstep
// debug` N times, each serving its own debug::Session: rank_server.h) with a Unix socket per rank
// (Note [the ranks' sockets] in rank_controller.cpp), sends each command to every rank and waits
// for all answers. A rank whose script fails, a rank process that dies and stop() end every rank;
// nothing waits forever on a rank that is gone. Calls block: a GUI makes them on a worker
// thread; stop() may come from another thread while a call waits. No Python or Qt header.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/rank_state.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/types.h>

namespace gradstep::session {

/// The ranks' session ended: a rank failed (its diagnostic, naming the rank), a rank process
/// ended, the ranks could not start, or stop() was called. The ranks are all stopped then.
class RanksEnded : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RankControllerOptions {
    /// The launcher up to the program it runs: ["/usr/bin/mpirun", "-n", "2", ..., "/path/gradstep"].
    std::vector<std::string> launcher;
    /// What follows `debug`: the script and its debug options (--break, --seed, -- ARGS...).
    std::vector<std::string> debugArguments;
    int ranks = 2;
    /// The ranks' output (what their scripts print, mpirun's messages): this process's standard
    /// error, or (captureOutput) a file in the controller's directory, removed with it, whose end
    /// RanksEnded quotes.
    bool captureOutput = false;
    /// How long the ranks may take to start and connect.
    std::chrono::milliseconds connectTimeout{60'000};
    /// How long a query (where, tensor, grads) may take once asked.
    std::chrono::milliseconds queryTimeout{30'000};
};

class RankController {
public:
    explicit RankController(RankControllerOptions options);
    /// Stops the ranks and reaps them.
    ~RankController();
    RankController(const RankController&) = delete;
    RankController& operator=(const RankController&) = delete;

    /// Starts the ranks and waits until every one connected and paused (after its first node, or
    /// at its first breakpoint); their pauses, by rank. RanksEnded when they cannot.
    std::vector<RankPause> start();
    /// Every rank runs its next node (continue: to its next breakpoint or the end); their pauses.
    std::vector<RankPause> step();
    std::vector<RankPause> continueRun();
    std::vector<RankPause> where();
    /// A tensor of rank `rank` at its pause (RankTensor::error says why not).
    RankTensor tensor(int rank, const std::string& name);
    /// Every rank's gradients of the current step, by rank.
    std::vector<std::vector<RankGradient>> gradients();
    /// Ends every rank (quit, then signals after a grace period) and reaps mpirun. Safe from
    /// any thread, also while another call waits (which then throws RanksEnded); idempotent.
    void stop();
    /// Makes a call that waits end (it throws RanksEnded, the ranks stopped) without waiting for
    /// it: safe from any thread, returns at once. stop() still reaps mpirun.
    void requestStop() { m_stopRequested = true; }

    int ranks() const { return m_options.ranks; }
    bool running() const { return m_running; }
    /// The launcher's process (for tests); 0 when none runs.
    pid_t launcherPid() const { return m_launcherPid; }
    /// Why the session ended, once it did ("" while it runs).
    std::string endReason() const;

private:
    std::vector<RankPause> broadcastRun(const std::string& command);
    /// Sends `command` to the ranks and waits for one answer from each (by rank).
    std::vector<RankMessage> exchange(const Json& command, const std::vector<int>& ranks,
                                      std::chrono::milliseconds timeout);
    void acceptRanks();
    [[noreturn]] void endWith(const std::string& reason);
    /// Ends the ranks: `clean` (all paused, no collective in flight) lets them quit and end MPI
    /// normally; otherwise their connections close, which ends them. Then SIGTERM to mpirun and
    /// SIGKILL to its group, each after a grace period.
    void teardown(bool clean);
    std::string outputTail() const;
    /// Reaps the launcher when it ended; its exit described ("exit status 1") or "".
    std::string launcherEnded();

    RankControllerOptions m_options;
    std::filesystem::path m_directory;
    std::filesystem::path m_socket;
    std::filesystem::path m_output; ///< captureOutput's file
    int m_listener = -1;
    std::vector<int> m_fds; ///< by rank
    std::vector<RankReader> m_readers; ///< by rank
    pid_t m_pid = 0;
    std::atomic<pid_t> m_launcherPid{0}; ///< launcherPid(): readable from any thread
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_stopRequested{false};
    std::mutex m_callMutex; ///< one call at a time; stop() takes it after raising m_stopRequested
    mutable std::mutex m_reasonMutex;
    std::string m_endReason;
};

} // namespace gradstep::session
