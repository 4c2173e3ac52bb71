// Both sides of a comparison at once, in two child processes (Note [both sides at once]).
// SPDX-License-Identifier: MIT
#include "session/compare_processes.h"

#include "io/read_file.h"
#include "io/spawn_with_output.h"
#include "io/temporary_directory.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace gradstep::session {

namespace {

struct Child {
    pid_t pid = -1;
    int pidfd = -1; ///< readable once the child ended: the wait wakes at once, not at a poll tick
    int status = 0;
    bool ended = false;
    std::filesystem::path side, output;
};

pid_t forkSide(const SideProcess& process, const Child& child)
{
    // Whatever this process buffered would otherwise be printed once more by the child.
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    int status = 1;
    const int fd = open(child.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    try {
        status = process.forked(child.side);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep compare: %s\n", e.what());
    }
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status); // never back into the parent's code, nor its atexit handlers
}

int spawnSide(const SideProcess& process, Child& child)
{
    std::vector<std::string> args{process.executable.string()};
    args.insert(args.end(), process.args.begin(), process.args.end());
    args.insert(args.end(), {"--side-report", child.side.string()});
    return spawnWithOutput(std::move(args), child.output, child.pid);
}

Child startSide(const SideProcess& process, const std::filesystem::path& folder, const char* name)
{
    Child child;
    child.side = folder / (std::string(name) + ".side");
    child.output = folder / (std::string(name) + ".out");
    int error = 0;
    if (process.forked) {
        child.pid = forkSide(process, child);
        error = child.pid < 0 ? errno : 0;
    } else {
        error = spawnSide(process, child);
    }
    if (error != 0) {
        child.pid = -1;
        child.ended = true;
        child.status = -error;
        return child;
    }
    child.pidfd = static_cast<int>(syscall(SYS_pidfd_open, child.pid, 0)); // -1 before Linux 5.3
    return child;
}

std::string howItEnded(const Child& child)
{
    if (child.pid < 0)
        return "could not start (" + std::string(std::strerror(-child.status)) + ")";
    if (WIFSIGNALED(child.status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(child.status)) + " ("
               + strsignal(WTERMSIG(child.status)) + ")";
    return "ended with status " + std::to_string(WEXITSTATUS(child.status));
}

SideOutcome outcomeOf(const Child& child, const SideProcess& process, bool stopped)
{
    SideOutcome outcome;
    outcome.output = readWholeFile(child.output);
    const bool exited130 = child.pid >= 0 && WIFEXITED(child.status) && WEXITSTATUS(child.status) == 130;
    outcome.interrupted = exited130 || (stopped && child.pid >= 0 && WIFSIGNALED(child.status));
    try {
        if (std::filesystem::exists(child.side)) {
            outcome.figures = sideFromWire(readWholeFile(child.side));
            return outcome;
        }
    } catch (const std::exception& e) {
        outcome.figures.error = std::string("its process wrote an unreadable result: ") + e.what();
    }
    outcome.figures.label = process.label;
    if (!outcome.figures.error)
        outcome.figures.error = outcome.interrupted ? std::string("interrupted")
                                                    : "its process " + howItEnded(child)
                                                          + " without a result";
    return outcome;
}

void reap(Child& child)
{
    if (child.ended || waitpid(child.pid, &child.status, WNOHANG) != child.pid)
        return;
    child.ended = true;
    if (child.pidfd >= 0)
        close(child.pidfd);
    child.pidfd = -1;
}

void signalRunning(Child (&children)[2], int signal)
{
    for (Child& c : children)
        if (!c.ended)
            kill(c.pid, signal);
}

} // namespace

bool sidesRunInParallel()
{
    return std::thread::hardware_concurrency() >= 2;
}

bool comparesInProcesses(CompareWhat what, const CompareOptions& options)
{
    // Ranks: side A is itself N processes under mpirun (CompareOptions::runOnRanks).
    return options.steps > 1 && sidesRunInParallel() && what != CompareWhat::FiniteDifferences
           && what != CompareWhat::Saved && what != CompareWhat::Ranks;
}

std::pair<SideOutcome, SideOutcome> runSidesInProcesses(const SideProcess& a, const SideProcess& b,
                                                        const std::function<bool()>& stopRequested)
{
    const TemporaryDirectory folder("gradstep-compare");
    Child children[2] = {startSide(a, folder.path(), "a"), startSide(b, folder.path(), "b")};
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> stoppedAt;
    bool killed = false;
    while (!(children[0].ended && children[1].ended)) {
        pollfd ends[2];
        bool everyEndWakes = true;
        for (int i = 0; i < 2; ++i) {
            ends[i] = {children[i].ended ? -1 : children[i].pidfd, POLLIN, 0};
            everyEndWakes = everyEndWakes && (children[i].ended || children[i].pidfd >= 0);
        }
        poll(ends, 2, everyEndWakes ? 100 : 10); // a signal's EINTR only means another look
        for (Child& c : children)
            reap(c);
        if (!stoppedAt && stopRequested && stopRequested()) {
            stoppedAt = Clock::now();
            signalRunning(children, SIGINT);
        }
        // SIGINT asks a script to stop where it is; one blocked in a long C call does not hear it.
        if (stoppedAt && !killed && Clock::now() - *stoppedAt > std::chrono::seconds(5)) {
            signalRunning(children, SIGKILL);
            killed = true;
        }
    }
    return {outcomeOf(children[0], a, stoppedAt.has_value()), outcomeOf(children[1], b, stoppedAt.has_value())};
}

Comparison comparisonOf(SideOutcome a, SideOutcome b, CompareWhat what, const CompareOptions& options)
{
    Comparison c;
    c.what = what;
    c.steps = options.steps;
    c.tolerance = options.tolerance;
    c.a = std::move(a.figures);
    c.b = std::move(b.figures);
    c.interrupted = a.interrupted || b.interrupted;
    concludeComparison(c);
    return c;
}

Comparison compareInChildProcesses(const CompareSide& a, const CompareSide& b, CompareWhat what,
                                   const CompareOptions& options,
                                   const std::filesystem::path& executable)
{
    for (const CompareSide* side : {&a, &b})
        if (side->unavailable) { // nothing to start: the other side still runs, in this process
            CompareOptions one = options;
            one.warmUp = false;
            return compareSides(a, b, what, one);
        }
    const TemporaryDirectory folder("gradstep-compare-requests");
    SideProcess processes[2];
    for (int i = 0; i < 2; ++i) {
        const CompareSide& side = i == 0 ? a : b;
        const std::filesystem::path request = folder.path() / (i == 0 ? "a.json" : "b.json");
        std::ofstream(request, std::ios::binary) << sideRequestToJson(side, options).dump();
        processes[i].label = side.label;
        processes[i].executable = executable;
        processes[i].args = {"compare", "--side-request", request.string()};
        if (!options.output)
            processes[i].args.emplace_back("--quiet");
    }
    if (options.runStarted)
        options.runStarted(a.label + " and " + b.label, 1, 1);
    auto [outA, outB] = runSidesInProcesses(processes[0], processes[1], options.cancelled);
    if (options.output)
        for (const SideOutcome* side : {&outA, &outB})
            if (!side->output.empty())
                options.output(run::OutputStream::Stdout, side->output);
    return comparisonOf(std::move(outA), std::move(outB), what, options);
}

} // namespace gradstep::session
