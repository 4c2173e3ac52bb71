// Note [both sides at once]: the embedded interpreter runs one script at a time, so a comparison
// over many steps runs each side in a child process of its own, the two at the same time on a
// machine with two cores or more: N steps then cost about one run, not two. The command line,
// a single thread with no interpreter yet, forks itself (no second program start on the way);
// the window, whose threads and interpreter a fork would copy half-held, starts `gradstep compare
// --side-request` instead. Each child writes its side in the wire form (sideToWire) and keeps what
// its script prints in a file of its own, shown after both end, so the two never interleave.
// No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gradstep::session {

/// How one child comes to run its side.
struct SideProcess {
    std::string label;
    /// Set: the child is a fork of this process that calls it with the path to write the side to,
    /// its result being the child's exit status. Only for a process with no thread that could
    /// hold a lock at the fork (the command line before it starts Python).
    std::function<int(const std::filesystem::path& sideReport)> forked;
    /// Else the child runs `executable` with `args`, then "--side-report" and that path.
    std::filesystem::path executable;
    std::vector<std::string> args;
};

struct SideOutcome {
    StepFigures figures; ///< the side, or an error saying why the child gave none
    std::string output;  ///< what the child printed (the script's output and its own)
    bool interrupted = false; ///< the child ended on SIGINT (Ctrl-C, or a stop)
};

/// Runs the two children at once and waits for both. When `stopRequested` first says true,
/// SIGINT goes to the children still running and, 5 s later, SIGKILL. A child that ends without
/// writing its side (killed, crashed) becomes a side whose error says how it ended.
std::pair<SideOutcome, SideOutcome> runSidesInProcesses(const SideProcess& a, const SideProcess& b,
                                                        const std::function<bool()>& stopRequested);

/// The comparison of two sides run elsewhere: diff and first divergence (concludeComparison).
Comparison comparisonOf(SideOutcome a, SideOutcome b, CompareWhat what, const CompareOptions& options);

/// True when this machine can run the two sides at the same time.
bool sidesRunInParallel();

/// Whether a comparison runs its sides in two processes: over more than one step (the first
/// step alone is too short to repay a second program start), on two cores or more; fd runs
/// once.
bool comparesInProcesses(CompareWhat what, const CompareOptions& options);

/// What a child started from the window runs (`gradstep compare --side-request FILE`): the side
/// and the options that reach it (seed, steps, timeout, the script's arguments).
Json sideRequestToJson(const CompareSide& side, const CompareOptions& options);
/// The inverse; ValueError or JsonError on a malformed request.
std::pair<CompareSide, CompareOptions> sideRequestFromJson(const Json& request);

/// Both sides at once, each in a child process running `executable` (gradstep itself) with
/// `compare --side-request`; options.cancelled stops both, options.runStarted hears of the one
/// start. What the children print is handed to options.output after both end.
Comparison compareInChildProcesses(const CompareSide& a, const CompareSide& b, CompareWhat what,
                                   const CompareOptions& options,
                                   const std::filesystem::path& executable);

} // namespace gradstep::session
