// `gradstep debug`: runs a script under a debug::Session until the first breakpoint, watchpoint
// or NaN (or the end, or --steps training steps) and reports where and why, as text or as one
// JSON object. SPDX-License-Identifier: MIT
#include "app/cli_debug.h"

#include "app/cli_common.h"

#include "app/debug_report.h"
#include "app/rank_launcher.h"
#include "app/rank_console.h"
#include "app/rank_pause.h"
#include "session/rank_server.h"
#include "session/rank_wire.h"
#include "dist/communicator.h"
#include "python/host/host.h"
#include "session/session.h"
#include "tensor/errors.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gradstep::app {

namespace {

constexpr const char* kUsage = R"(usage: gradstep debug SCRIPT [--break WHERE]... [--watch LIST]... [--steps N]
                      [--api 2.x|1.10] [--seed S] [--checkpoint FILE.ckpt] [--memory-cap MIB]
                      [--json] [--quiet] [--ranks N [--rank K] [--interactive]] [-- ARGS...]

Runs SCRIPT under the step debugger until the first breakpoint, watchpoint or NaN and prints
where and why: the node, its source line and the values it consumed and produced.

options:
  --break WHERE  pause at LINE, FILE:LINE, op:TYPE (every Conv2D), name:GLOB (node names such
                 as LeNet5/conv1/Conv2D), phase:forward|backward|update (a phase begins) or
                 tensor:STAT OP NUMBER (an output with max_abs>1e3, ...); repeatable
  --watch LIST   comma-separated watchpoints: nan, overflow, above[:STAT]=X, below[:STAT]=X,
                 vanishing[=1e-7], exploding[=1e3], unchanged[=1e-8], change_above=X,
                 change_below=X, saturation[=0.9], dead_relu[=0.9]; repeatable. With nan the
                 report names the node that first produced NaN/Inf from finite inputs; with
                 overflow the first node whose float16/bfloat16 output overflowed to inf (or
                 rounded a nonzero value to 0) where float32 would not, and its float32 value
  --steps N      stop after N training steps when nothing was hit
  --api PROFILE  the MindSpore API the script sees: 2.x (default) or 1.10
  --seed S       mindspore.set_seed(S) before the script starts
  --checkpoint FILE  load a MindSpore checkpoint into the script's network when the script
                 first calls a Cell holding one of its Parameters (File > Open Checkpoint)
  --memory-cap MIB  what the debugger keeps of the current step (tensor snapshots, the weights
                 before the update), in MiB (default 1024); the oldest snapshots go first, and
                 time travel re-runs the script to see them again
  --ranks N      data parallel: run N ranks of the script through Open MPI's mpirun, each under
                 its own debugger (as gradstep run --ranks does); every rank stops at its first
                 hit, which for ranks running the same script is the same node: rank 0 says so
                 (or where each rank stopped), then each rank prints its report, with the values
                 on that rank, its lines starting with "[rank k] "
  --rank K       with --ranks: print rank K's report only
  --interactive  with --ranks: step the ranks together from commands on standard input; every
                 rank pauses after its first node (or at its first breakpoint), then: step (each
                 rank runs its next node), over, out (step over, step out), continue (to the next
                 breakpoint or the end; when one rank stops, the others are paused too), pause
                 or Ctrl+C (stops a continue under way: every rank at the same node), where (each rank's
                 node and source location), print NAME [--rank K] (a tensor's values on each rank
                 or on rank K; NAME is output K or input K of the node, #SEQ:K or grad:PARAM),
                 grads (each parameter's gradient norm on each rank before the all-reduce, their
                 mean and spread, the all-reduced gradient and whether it is the ranks' mean or
                 sum), quit. The ranks' own output goes to stderr. A rank that fails or dies
                 ends every rank (exit status 1, with its diagnostic); so does a rank that does
                 not answer a command within GRADSTEP_RANK_TIMEOUT seconds (default 30) once the
                 others stopped (the message names it and where the others are)
  --json         print one JSON object (reason, condition, step, node, location, values)
  --quiet        do not show what the script prints
  --             everything after it is passed to the script

exit status: 0 a hit or the end was reported, 1 the script raised an error, 2 bad usage,
130 interrupted with Ctrl-C.
)";

struct Options {
    debug::SessionOptions session;
    int steps = 0;
    bool json = false;
    bool quiet = false;
    bool help = false;
    int ranks = 0;                      ///< --ranks N
    int rank = -1;                      ///< --rank K: the one report to print (-1: every rank's)
    bool interactive = false;           ///< --interactive: the ranks console (rank_console.h)
    std::vector<std::string> forwarded; ///< the arguments without --ranks, for each rank
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep debug: %s\n(see gradstep debug --help)\n", message.c_str());
    return 2;
}

/// The value of an option that takes one; empty optional when missing.
const char* valueOf(int argc, char** argv, int& i)
{
    return i + 1 < argc ? argv[++i] : nullptr;
}

int parseOption(const std::string& arg, const char* value, Options& o)
{
    if (!value)
        return usageError(arg + " needs a value");
    long long n = 0;
    if (arg == "--break") {
        try {
            debug::parseBreakpoint(value);
        } catch (const ValueError& e) {
            return usageError(std::string("--break: ") + e.what());
        }
        o.session.breakpoints.emplace_back(value);
    } else if (arg == "--watch") {
        try {
            debug::parseWatchpoints(value);
        } catch (const ValueError& e) {
            return usageError(std::string("--watch: ") + e.what());
        }
        o.session.watchpoints.emplace_back(value);
    } else if (arg == "--steps") {
        if (!parseWholeNumber(value, 1'000'000'000, n) || n == 0)
            return usageError("--steps needs a positive whole number, got '" + std::string(value) + "'");
        o.steps = static_cast<int>(n);
    } else if (arg == "--api") {
        if (std::string(value) != "2.x" && std::string(value) != "1.10")
            return usageError("--api expects 2.x or 1.10, got '" + std::string(value) + "'");
        o.session.apiProfile = value;
    } else if (arg == "--seed") {
        if (!parseWholeNumber(value, (1LL << 62), n))
            return usageError("--seed needs a whole number >= 0, got '" + std::string(value) + "'");
        o.session.overrides.seed = static_cast<std::uint64_t>(n);
    } else if (arg == "--checkpoint") {
        o.session.overrides.checkpoint = value;
    } else if (arg == "--memory-cap") {
        if (!parseWholeNumber(value, 1LL << 30, n))
            return usageError("--memory-cap needs a whole number of MiB, got '" + std::string(value) + "'");
        o.session.memoryCapBytes = static_cast<std::size_t>(n) << 20;
    } else if (arg == "--ranks") {
        if (!parseWholeNumber(value, 1024, n) || n < 2)
            return usageError("--ranks needs a whole number from 2 to 1024");
        o.ranks = static_cast<int>(n);
    } else if (arg == "--rank") {
        if (!parseWholeNumber(value, 1023, n))
            return usageError("--rank needs a rank number >= 0, got '" + std::string(value) + "'");
        o.rank = static_cast<int>(n);
    }
    return 0;
}

int parse(int argc, char** argv, Options& o)
{
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            if (o.session.script.empty() && i + 1 < argc)
                o.session.script = argv[++i];
            for (++i; i < argc; ++i)
                o.session.args.emplace_back(argv[i]);
        } else if (arg == "--help" || arg == "-h") {
            o.help = true;
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--quiet" || arg == "-q") {
            o.quiet = true;
        } else if (arg == "--interactive") {
            o.interactive = true;
        } else if (arg == "--break" || arg == "--watch" || arg == "--steps" || arg == "--api"
                   || arg == "--seed" || arg == "--checkpoint" || arg == "--memory-cap" || arg == "--ranks"
                   || arg == "--rank") {
            if (const int status = parseOption(arg, valueOf(argc, argv, i), o))
                return status;
        } else if (arg.size() > 1 && arg[0] == '-') {
            return usageError("unknown option " + arg);
        } else if (o.session.script.empty()) {
            o.session.script = arg;
        } else {
            return usageError("unexpected argument " + arg + " (arguments for the script go after --)");
        }
    }
    if (!o.help && o.session.script.empty())
        return usageError("no script given");
    if (o.ranks > 0 && o.rank >= o.ranks)
        return usageError("--rank " + std::to_string(o.rank) + " is not one of the " + std::to_string(o.ranks)
                          + " ranks");
    if (o.interactive && o.ranks == 0)
        return usageError("--interactive steps the ranks of --ranks N");
    // Each rank runs the same command without --ranks (and without --interactive).
    for (int i = 0; i < argc; ++i) {
        if (std::string(argv[i]) == "--") {
            o.forwarded.insert(o.forwarded.end(), argv + i, argv + argc);
            break;
        }
        if (std::string(argv[i]) == "--ranks")
            ++i;
        else if (std::string(argv[i]) == "--interactive")
            continue;
        else
            o.forwarded.emplace_back(argv[i]);
    }
    return 0;
}

/// Waits for the first pause or the end; cancels on Ctrl-C (then returns null).
std::shared_ptr<const debug::SessionState> waitForStop(debug::Session& session)
{
    bool cancelled = false;
    while (!session.waitForPause(std::chrono::milliseconds(100)))
        if (!cancelled && python::Host::interruptCount() > 0) {
            session.cancel();
            cancelled = true;
        }
    return cancelled ? nullptr : session.state();
}

/// A rank of `debug --ranks`: a rank whose script failed ends every rank with its diagnostic (the
/// others may wait for it in a collective); otherwise rank 0 says whether all paused at the same
/// node and the ranks print their reports in turn. Returns the rank's exit status.
int reportRanks(const debug::SessionState* state, const python::UserFiles& files, const Options& o)
{
    if (state && state->status == debug::SessionStatus::Failed) {
        if (state->diagnostic)
            writeErr(state->diagnostic->format());
        finishOutputLines();
        dist::abortAll(1);
    }
    const std::string agreement = agreeOnPause(state);
    if (!agreement.empty())
        writeErr(agreement);
    inRankOrder([&](int rank) {
        if (!state || (o.rank >= 0 && rank != o.rank))
            return;
        writeOut(o.json ? debugReportJson(*state, files) + "\n" : debugReportText(*state, files));
    });
    return state ? 0 : 130;
}

/// Runs to the first breakpoint, watchpoint or NaN (or --steps) and reports it: the plain `debug`,
/// or a rank of `debug --ranks N`. Returns the exit status.
int runToFirstStop(debug::Session& session, bool ranked, const python::UserFiles& files, const Options& o)
{
    session.load(o.steps > 0 ? debug::RunCommand::of(debug::RunCommand::Kind::Steps, o.steps)
                             : debug::RunCommand::of(debug::RunCommand::Kind::Continue));
    const std::shared_ptr<const debug::SessionState> state = waitForStop(session);
    if (ranked)
        return reportRanks(state.get(), files, o);
    if (!state)
        return 130;
    if (state->status == debug::SessionStatus::Failed) {
        if (state->diagnostic)
            std::fputs(state->diagnostic->format().c_str(), stderr);
        return 1;
    }
    std::fputs((o.json ? debugReportJson(*state, files) + "\n" : debugReportText(*state, files)).c_str(), stdout);
    return 0;
}

/// A rank under `debug --ranks N --interactive` (or the window's Ranks panel): its session pauses
/// after the first node (at the first breakpoint when there are some) and answers the controller
/// (session/rank_server.h). A controller that went away ends the rank at once: the other ranks
/// may wait for it in a collective, and mpirun ends them when it ends.
int serveController(debug::Session& debugSession, const dist::Launch& launch, const char* socket, const Options& o)
{
    debugSession.load(o.session.breakpoints.empty() ? debug::RunCommand{}
                                               : debug::RunCommand::of(debug::RunCommand::Kind::Continue));
    std::string error;
    session::RankServeEnd end = session::RankServeEnd::ControllerGone;
    try {
        end = session::serveRank(debugSession, launch.rank, launch.size, socket, error);
    } catch (const std::exception& e) {
        error = std::string("a malformed command from the controller: ") + e.what();
    }
    if (end != session::RankServeEnd::Quit) {
        writeErr("[gradstep] " + (error.empty() ? std::string("the controller closed this rank's connection") : error) + "; this rank ends\n");
        finishOutputLines();
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(1);
    }
    return 0;
}

} // namespace

int debugCommand(int argc, char** argv)
{
    Options o;
    if (const int status = parse(argc, argv, o))
        return status;
    if (o.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const dist::Launch launch = dist::launchEnvironment();
    if (o.ranks > 0) {
        if (launch.launched)
            return usageError("--ranks starts the ranks itself: it cannot be used under mpirun");
        return o.interactive ? runRankConsole(o.ranks, o.forwarded) : launchRanks(o.ranks, o.forwarded, "debug");
    }
    const bool ranked = launch.launched && launch.size > 1;
    if (ranked)
        setOutputPrefix("[rank " + std::to_string(launch.rank) + "] ");
    if (!startPython("debug"))
        return 1;
    const char* controller = std::getenv(session::kRankSocketVariable);
    const bool served = ranked && controller && *controller;
    if (served && !o.quiet) // the controller's standard output is its user's
        o.session.output = [](run::OutputStream, std::string_view text) { writeErr(text); };
    else if (!o.quiet && ranked) // through the rank's prefix
        o.session.output = [json = o.json](run::OutputStream stream, std::string_view text) {
            json || stream == run::OutputStream::Stderr ? writeErr(text) : writeOut(text);
        };
    else if (!o.quiet)
        o.session.output = [json = o.json](run::OutputStream stream, std::string_view text) {
            std::FILE* out = json || stream == run::OutputStream::Stderr ? stderr : stdout;
            std::fwrite(text.data(), 1, text.size(), out);
            std::fflush(out);
        };
    const python::UserFiles files(o.session.script);
    int status = 0;
    {
        debug::Session session(o.session);
        status = served ? serveController(session, launch, controller, o) : runToFirstStop(session, ranked, files, o);
        // Every rank ends here: the script, cancelled next, must not enter a collective that the
        // others will not join (it would wait there for the collective timeout).
        if (ranked)
            dist::refuseCollectives();
        session.cancel();
    }
    python::Host::shutdown();
    if (ranked)
        dist::finalize();
    if (python::Host::abandonedRuns())
        endWithoutPython(status); // a blocked script's thread is still inside Python
    return status;
}

} // namespace gradstep::app
