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
#include <functional>
#include <mutex>
#include <optional>
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
    /// Rank 0 is this process's own session (the window: Note [rank 0 in the window] in
    /// rank_relay.cpp): mpirun starts a relay as MPI rank 0 (`gradstep rank-relay`) and N-1
    /// debugging ranks; start() returns once they connected, the caller takes the relay's
    /// connection (takeRelay), serves its session as rank 0 (serveRank on socketPath()) and calls
    /// joinRankZero(). `launcher` then holds "-n N" as rankServeLauncher makes it.
    bool rankZeroHere = false;
    /// How long the ranks may take to start and connect.
    std::chrono::milliseconds connectTimeout{60'000};
    /// How long a query (where, tensor, grads) may take once asked.
    std::chrono::milliseconds queryTimeout{30'000};
    /// How long a run command may wait for a rank (Note [pausing the ranks together]): a step for
    /// every rank; a continue for the ranks still running once one rank stopped or a pause was
    /// asked for. GRADSTEP_RANK_TIMEOUT (seconds) in the environment overrides it.
    std::chrono::milliseconds runTimeout{30'000};
};

class RankController {
public:
    using Clock = std::chrono::steady_clock;

    explicit RankController(RankControllerOptions options);
    /// Stops the ranks and reaps them.
    ~RankController();
    RankController(const RankController&) = delete;
    RankController& operator=(const RankController&) = delete;

    /// Starts the ranks and waits until every one connected and paused (after its first node, or
    /// at its first breakpoint); their pauses, by rank. RanksEnded when they cannot.
    std::vector<RankPause> start();
    /// rankZeroHere: the relay's connection, for dist::setRemoteWorld (the caller owns this
    /// descriptor; the connection is shut down when the ranks end); -1 after the first call.
    int takeRelay();
    /// rankZeroHere: waits until rank 0 connected too and every rank paused; their pauses.
    std::vector<RankPause> joinRankZero();
    /// Where the ranks connect (rank 0 of rankZeroHere too).
    std::string socketPath() const { return m_socket.string(); }
    /// Every rank runs its next node (over, out: as the debugger's step over and step out;
    /// continue: to its next breakpoint or the end); their pauses. The ranks end up at the same
    /// node when they run the same nodes (Note [pausing the ranks together]); a rank that does not
    /// answer within runTimeout ends them all with RanksEnded naming it and where the others are.
    std::vector<RankPause> step();
    std::vector<RankPause> stepOver();
    std::vector<RankPause> stepOut();
    std::vector<RankPause> continueRun();
    /// Pauses a run command under way (continue above all): every rank stops, at the same node
    /// when they run the same nodes, and the command returns their pauses. Safe from any thread;
    /// it applies to the command running or the next one, and is forgotten when that returns.
    void requestPause() { m_pauseRequested = true; }
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
    using Answers = std::vector<std::optional<RankMessage>>; ///< by rank

    std::vector<RankPause> broadcastRun(const std::string& command);
    /// Sends run command `command` to every rank and settles their answers; `unbounded`: no
    /// limit while every rank runs (continue, the first pause).
    std::vector<RankPause> runAll(const std::string& command, bool unbounded);
    /// Sends `command` to the ranks and waits for one answer from each (by rank).
    std::vector<RankMessage> exchange(const Json& command, const std::vector<int>& ranks,
                                      std::chrono::milliseconds timeout);
    void send(const Json& command, const std::vector<int>& ranks);
    /// Reads answers to `name` into `answers` (the ranks with an empty slot) until all are in,
    /// `until` passed or `interrupt` holds; ends the ranks when one failed, closed or went away.
    void receive(const std::string& name, Answers& answers, Clock::time_point until,
                 const std::function<bool()>& interrupt = {});
    /// The ranks' answers to `name` as pauses once every rank answered; pauses the ranks still
    /// running and lines the ranks up (Note [pausing the ranks together] in rank_runs.cpp).
    std::vector<RankPause> settle(const std::string& name, Answers& answers);
    /// Steps the ranks that paused at an earlier node than the furthest one to it.
    std::vector<RankPause> lineUp(const std::string& name, std::vector<RankPause> pauses);
    static std::vector<int> pendingRanks(const Answers& answers);
    std::vector<int> everyRank() const;
    static std::string rankList(const std::vector<int>& ranks);
    static std::string secondsText(std::chrono::milliseconds ms);
    [[noreturn]] void endUnanswered(const std::string& name, const Answers& answers,
                                    const std::vector<std::optional<RankPause>>& lastKnown, const std::string& how);
    /// Accepts connections until every rank of `ranks` (and the relay, when `relay`) said hello.
    void acceptRanks(const std::vector<int>& ranks, bool relay);
    std::vector<std::string> launchArguments() const;
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
    std::vector<std::optional<RankReader>> m_accepted; ///< by rank, while they connect
    std::vector<std::optional<Json>> m_pokes; ///< by rank: what a rank still running said of itself
    int m_relay = -1; ///< rankZeroHere: the relay's connection (takeRelay hands out a copy)
    bool m_relayTaken = false;
    pid_t m_pid = 0;
    std::atomic<pid_t> m_launcherPid{0}; ///< launcherPid(): readable from any thread
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_stopRequested{false};
    std::atomic<bool> m_pauseRequested{false};
    std::mutex m_callMutex; ///< one call at a time; stop() takes it after raising m_stopRequested
    mutable std::mutex m_reasonMutex;
    std::string m_endReason;
};

} // namespace gradstep::session
