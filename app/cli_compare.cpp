// `gradstep compare`: two runs of a script's first step (session/compare.h), a table on stdout
// and optionally the JSON report. SPDX-License-Identifier: MIT
#include "app/cli_compare.h"

#include "app/cli_common.h"
#include "app/compare_ranks.h"

#include "dist/communicator.h"
#include "python/host/host.h"
#include "io/json.h"
#include "session/compare.h"
#include "session/compare_processes.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::app {

namespace {

constexpr const char* kUsage =
    R"(usage: gradstep compare SCRIPT --what has-aux|mode|grad-api|api|fd|amp|ranks [options] [-- ARGS...]
       gradstep compare SCRIPT_A SCRIPT_B [options] [-- ARGS...]
       gradstep compare SCRIPT --against RUN.json [options] [-- ARGS...]

Runs SCRIPT twice, under settings A and B (or two scripts under the same settings, or SCRIPT
against a saved run), from the same seed (so identical weights and data), for N training steps
(--steps, default 1). A training step is a call of a gradient function (grad, value_and_grad,
GradOperation, a TrainOneStepCell step) and the optimizer update after it. Compares the first
step's gradients parameter by parameter and, over N steps, the two curves: the first step where
the loss or a parameter's gradient norm parts by more than the tolerance.

  --what has-aux   A: has_aux forced on for every grad / value_and_grad, B: forced off
  --what mode      A: PyNative, B: graph mode (B reports an error when this build has no
                   graph mode)
  --what grad-api  A: value_and_grad (grad-only calls run through it, one forward), B: the
                   grad-only fallback (each value_and_grad call runs as `value = fn(...)` and
                   then `grad(fn)(...)`, so the forward runs twice)
  --what api       A: the MindSpore 2.x API, B: the 1.10 API (no mindspore.value_and_grad or
                   mindspore.grad at the top level); a side that fails shows its error
  --what fd        one run: A: the first step's gradients as computed, B: float64 central
                   differences of the same gradient call (grad, value_and_grad or
                   GradOperation without sens) for every differentiated input and weight, at
                   up to 24 elements per tensor (all of a smaller one; else the 8 largest
                   gradients and 16 spread evenly), h = 1e-6 * max(1, |x|), every op computing
                   in float64; the verdict names the worst element. Checks a custom bprop, a
                   hook or a custom op the way gradcheck does; --steps does not apply
  --what amp       A: float32 everywhere (amp level O0: to_float, amp levels and custom lists
                   ask for float16 in vain), B: the script's own mixed precision, or amp's O2
                   on the network it first calls when it has none; loss-scaled gradients are
                   divided by their scale, so the table shows what half precision costs them
  --what ranks     A: N data-parallel ranks (--ranks, default 2) through Open MPI's mpirun,
                   rank 0's view, B: one rank on the full batch (a world of one, where
                   get_group_size() is 1, and every batch(batch_size) takes N x batch_size rows,
                   the rows of all N ranks' batches). Both sides show the gradients their
                   optimizer received (A's after the all-reduce); with gradients_mean they must
                   be equal within float32 tolerance (1e-5 relative), and the verdict says so,
                   or that A is N times B (summed: gradients_mean off). The losses differ by
                   design (rank 0's is its shard's) and are not compared. Assumes the script's
                   batch size is per rank, as in MindSpore's data-parallel tutorial

options:
  --what SETTING     what to compare on one script (see above)
  --against RUN.json compare SCRIPT (side A) with a run saved by `gradstep run --report` (side
                     B), under that run's mode and API; the saved run keeps gradient norms, not
                     values, so the first step's gradients are compared by their norms; --steps
                     defaults to the saved run's steps
  --steps N          training steps per side (default 1); with N > 1 on a machine with two
                     cores or more, the two sides run at the same time in two processes
  --ranks N          with --what ranks: the ranks of side A, 2 to 64 (default 2)
  --tolerance T      relative difference beyond which two steps part (default 1e-3, the
                     table's "close" threshold)
  --report FILE      also write the comparison as JSON to FILE (replaced atomically):
                     {"what", "steps", "tolerance", "a": {label, loss, forward_passes, nodes,
                     nodes_by_phase, seconds, run_seconds, params: [{name, shape, grad_norm,
                     grad_sum, grad_first5}], steps: [{step, loss, lr, params: [{name,
                     grad_norm, value_norm}]}], error?, error_location?, later_error?},
                     "b": {...}, "diff": [{name, norm_a, norm_b, max_abs_diff, rel_diff,
                     verdict}], "first_divergence": null | {step, kind: "loss" | "gradient",
                     name, a, b}} (numbers that are not finite are null)
  --seed S           the seed set before each run (mindspore.set_seed), default 0; a set_seed
                     call in the script still applies
  --timeout SECONDS  stop a run after SECONDS (default 300)
  --no-warm-up       skip the warm-up: by default, when both sides run in this process, A runs
                     its first step once more first, silently, so that one-time costs of the
                     first run in the process (lazy imports, allocator, BLAS buffers) do not
                     inflate A's seconds
  --quiet            do not show what the scripts print
  --help             show this help
  --                 everything after it is passed to the script(s)

The first step's table: per parameter the gradient norms A and B, the largest absolute
difference, the relative difference |A - B| / max(|A|, |B|) (L2 norms) and a verdict: equal
(<= 1e-6), close (<= 1e-3), different, missing (one side has no such gradient or another
shape). Then per side: the loss (the first output of the differentiated function), the forward
passes of the step (how often the function's forward ran, counted from the forward ops reading
its weights), the nodes executed (forward, backward and update ops) and the step's seconds.
With N > 1, a table per step: the losses, their difference and the parameter whose gradient
norms differ most, and the first divergence.

exit status: 0 both runs gave a step, 1 a run failed before its first step (its error is shown)
or a file could not be read or written, 2 bad usage, 130 interrupted with Ctrl-C.
)";

struct Options {
    std::vector<std::string> scripts; ///< one, or two to compare
    std::vector<std::string> args;
    std::optional<session::CompareWhat> what;
    std::string against;
    std::string report;
    std::uint64_t seed = 0;
    std::optional<std::int64_t> steps;
    double tolerance = 1e-3;
    double timeoutSeconds = 300.0;
    /// A child of a comparison the window runs in two processes (session/compare_processes.h):
    /// runs the side the request file describes and writes it to sideReport in the wire form.
    std::string sideRequest;
    std::string sideReport;
    /// A rank of side A of --what ranks under mpirun (compare_ranks.h): "a", with sideReport.
    std::string runSide;
    int ranks = 2;             ///< --what ranks: side A's ranks
    bool ranksGiven = false;   ///< --ranks was given
    std::string sideSettings;  ///< a rank's settings from the window (compare_ranks.h)
    bool quiet = false;
    bool warmUp = true;
    bool help = false;
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep compare: %s\n(see gradstep compare --help)\n", message.c_str());
    return 2;
}

bool parseSeedArg(const char* text, std::uint64_t& seed)
{
    long long value = 0;
    if (!parseWholeNumber(text, std::numeric_limits<long long>::max(), value))
        return false;
    seed = static_cast<std::uint64_t>(value);
    return true;
}

/// The value of option argv[i]; null (after a usage message) when it is missing.
const char* valueOf(int argc, char** argv, int& i)
{
    if (i + 1 >= argc) {
        usageError(std::string(argv[i]) + " needs a value");
        return nullptr;
    }
    return argv[++i];
}

int parseOption(int argc, char** argv, int& i, Options& options)
{
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
        options.help = true;
    } else if (arg == "--quiet" || arg == "-q") {
        options.quiet = true;
    } else if (arg == "--no-warm-up") {
        options.warmUp = false;
    } else if (arg == "--what" || arg == "--report" || arg == "--seed" || arg == "--timeout"
               || arg == "--steps" || arg == "--tolerance" || arg == "--against"
               || arg == "--side-request" || arg == "--side-report" || arg == "--run-side"
               || arg == "--ranks" || arg == "--side-settings") {
        const char* value = valueOf(argc, argv, i);
        if (!value)
            return 2;
        long long steps = 0;
        if (arg == "--steps") {
            if (!parseWholeNumber(value, 1000000, steps) || steps < 1)
                return usageError("--steps needs a whole number from 1 to 1000000");
            options.steps = steps;
        }
        if (arg == "--tolerance" && !parseSeconds(value, options.tolerance))
            return usageError("--tolerance needs a positive number");
        if (arg == "--against")
            options.against = value;
        if (arg == "--side-request")
            options.sideRequest = value;
        if (arg == "--side-report")
            options.sideReport = value;
        if (arg == "--run-side") {
            options.runSide = value;
            if (options.runSide != "a")
                return usageError("--run-side needs a (a rank of --what ranks)");
        }
        if (arg == "--side-settings")
            options.sideSettings = value;
        if (arg == "--ranks") {
            long long ranks = 0;
            if (!parseWholeNumber(value, 64, ranks) || ranks < 2)
                return usageError("--ranks needs a whole number from 2 to 64");
            options.ranks = static_cast<int>(ranks);
            options.ranksGiven = true;
        }
        if (arg == "--what" && !(options.what = session::parseCompareWhat(value)))
            return usageError(std::string("unknown --what '") + value
                              + "' (expected has-aux, mode, grad-api, api, fd, amp or ranks)");
        if (arg == "--report")
            options.report = value;
        if (arg == "--seed" && !parseSeedArg(value, options.seed))
            return usageError("--seed needs a non-negative integer");
        if (arg == "--timeout" && !parseSeconds(value, options.timeoutSeconds))
            return usageError("--timeout needs a positive number of seconds");
    } else {
        return usageError("unknown option " + arg);
    }
    return 0;
}

/// Returns 0 when the options are usable, else the exit status of a usage error.
int parse(int argc, char** argv, Options& options)
{
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            if (options.scripts.empty() && i + 1 < argc)
                options.scripts.emplace_back(argv[++i]);
            for (++i; i < argc; ++i)
                options.args.emplace_back(argv[i]);
        } else if (arg.size() > 1 && arg[0] == '-') {
            if (const int status = parseOption(argc, argv, i, options))
                return status;
        } else if (options.scripts.size() < 2) {
            options.scripts.push_back(arg);
        } else {
            return usageError("unexpected argument " + arg
                              + " (arguments for the scripts go after --)");
        }
    }
    if (options.help)
        return 0;
    if (!options.runSide.empty() && (options.sideReport.empty() || !options.sideRequest.empty()))
        return usageError("--run-side goes with --side-report (and without --side-request)");
    if (options.runSide.empty() && options.sideRequest.empty() != options.sideReport.empty())
        return usageError("--side-request and --side-report go together");
    if (!options.sideRequest.empty())
        return 0; // the request says what to run
    if (options.scripts.empty())
        return usageError("no script given");
    const bool twoScripts = options.scripts.size() == 2;
    if (twoScripts && (options.what || !options.against.empty()))
        return usageError("two scripts are compared under the same settings: leave out "
                          + std::string(options.what ? "--what" : "--against"));
    if (options.what && !options.against.empty())
        return usageError("--what and --against cannot be combined");
    if (!twoScripts && !options.what && options.against.empty())
        return usageError("--what is required (has-aux, mode, grad-api, api, fd, amp or ranks), or a second "
                          "script, or --against RUN.json");
    if (options.ranksGiven && options.what != session::CompareWhat::Ranks)
        return usageError("--ranks goes with --what ranks");
    if (!options.runSide.empty() && options.what != session::CompareWhat::Ranks)
        return usageError("--run-side runs a rank of --what ranks");
    return 0;
}

session::CompareOptions compareOptionsOf(const Options& options)
{
    session::CompareOptions compareOptions;
    compareOptions.seed = options.seed;
    compareOptions.steps = options.steps.value_or(1);
    compareOptions.tolerance = options.tolerance;
    compareOptions.warmUp = options.warmUp;
    compareOptions.ranks = options.ranks;
    compareOptions.runOnRanks = runSideOnRanks;
    compareOptions.args = options.args;
    compareOptions.timeout =
        std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000.0));
    compareOptions.cancelled = [] { return python::Host::interruptCount() > 0; };
    if (!options.quiet)
        compareOptions.output = [](run::OutputStream stream, std::string_view text) {
            stream == run::OutputStream::Stdout ? writeOut(text) : writeErr(text);
        };
    return compareOptions;
}

std::pair<session::CompareSide, session::CompareSide> sidesOf(const Options& options,
                                                             const session::CompareOptions& compareOptions)
{
    if (options.scripts.size() == 2)
        return session::scriptSides(options.scripts[0], options.scripts[1], compareOptions);
    return session::settingSides(options.scripts[0], *options.what, compareOptions);
}

/// A child's work: one side, written to `report` in the wire form. Its exit status: 0 written,
/// 1 not, 130 interrupted.
int runSideToReport(const session::CompareSide& side, const session::CompareOptions& options,
                    const std::string& report)
{
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    if (!startPython("compare"))
        return 1;
    bool interrupted = false, abandoned = false;
    session::StepFigures figures = session::runSide(side, options, interrupted, abandoned);
    // The side's span is its process's, interpreter start included: the two processes' spans
    // overlap when they ran at the same time, however short the script.
    figures.startedAt = std::chrono::duration<double>(now).count();
    if (!abandoned)
        python::Host::shutdown();
    if (interrupted)
        return 130;
    const bool written = writeAtomically(report, session::sideToWire(figures), "compare");
    if (abandoned)
        endWithoutPython(written ? 0 : 1);
    return written ? 0 : 1;
}

/// A rank of side A of --what ranks, under mpirun: runs the side here; rank 0 writes it. A rank
/// whose script failed ends every rank (the others may wait for it in a collective).
int runOneRank(const Options& options)
{
    const dist::Launch launch = dist::launchEnvironment();
    if (!launch.launched) {
        std::fprintf(stderr, "gradstep compare: --what ranks --run-side a runs under mpirun only\n");
        return 2;
    }
    if (launch.size > 1)
        setOutputPrefix("[rank " + std::to_string(launch.rank) + "] ");
    session::CompareOptions compareOptions = compareOptionsOf(options);
    if (!options.sideSettings.empty() && !parseSideSettings(options.sideSettings, compareOptions)) {
        std::fprintf(stderr, "gradstep compare: bad --side-settings '%s'\n", options.sideSettings.c_str());
        return 2;
    }
    if (!startPython("compare"))
        return 1;
    session::CompareSide side = sidesOf(options, compareOptions).first;
    side.ranks = 0; // this process is one of them
    bool interrupted = false, abandoned = false;
    const session::StepFigures figures = session::runSide(side, compareOptions, interrupted, abandoned);
    if (!abandoned)
        python::Host::shutdown();
    finishOutputLines();
    bool written = true;
    if (launch.rank == 0)
        written = writeAtomically(options.sideReport, session::sideToWire(figures), "compare");
    if (figures.error || interrupted) {
        writeErr("error: " + figures.error.value_or("interrupted") + "\n");
        finishOutputLines();
        if (dist::usesMpi())
            dist::abortAll(interrupted ? 130 : 1);
        return interrupted ? 130 : 1;
    }
    if (dist::usesMpi())
        dist::finalize();
    if (abandoned)
        endWithoutPython(written ? 0 : 1);
    return written ? 0 : 1;
}

/// A child the window started: the side its request file describes.
int runRequestedSide(const Options& options)
{
    std::pair<session::CompareSide, session::CompareOptions> request;
    try {
        request = session::sideRequestFromJson(Json::parseFile(options.sideRequest));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep compare: %s: %s\n", options.sideRequest.c_str(), e.what());
        return 1;
    }
    session::CompareOptions& compareOptions = request.second;
    compareOptions.cancelled = [] { return python::Host::interruptCount() > 0; };
    if (!options.quiet)
        compareOptions.output = [](run::OutputStream stream, std::string_view text) {
            stream == run::OutputStream::Stdout ? writeOut(text) : writeErr(text);
        };
    return runSideToReport(request.first, compareOptions, options.sideReport);
}

std::atomic<bool> g_interrupted{false};

void onInterrupt(int) { g_interrupted = true; }

/// Both sides at once in two forked children (Note [both sides at once]); their output is shown
/// after both end.
session::Comparison compareInProcesses(const Options& options, session::CompareWhat what)
{
    const session::CompareOptions compareOptions = compareOptionsOf(options);
    const auto [a, b] = sidesOf(options, compareOptions);
    if (!options.quiet)
        writeErr("running A (" + a.label + ") and B (" + b.label + ") at the same time, "
                 + std::to_string(compareOptions.steps) + " steps each...\n");
    struct sigaction action {}, previous {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous);
    g_interrupted = false;
    const auto forked = [&](const session::CompareSide& side) {
        return [&side, &compareOptions, previous](const std::filesystem::path& report) {
            sigaction(SIGINT, &previous, nullptr); // the child's interpreter takes its own
            return runSideToReport(side, compareOptions, report.string());
        };
    };
    // A terminal's Ctrl-C reaches the children too; a SIGINT sent to this process alone does
    // not: pass it on when they are still running a second later.
    std::optional<std::chrono::steady_clock::time_point> interruptedAt;
    const auto stopRequested = [&interruptedAt] {
        if (g_interrupted && !interruptedAt)
            interruptedAt = std::chrono::steady_clock::now();
        return interruptedAt && std::chrono::steady_clock::now() - *interruptedAt > std::chrono::seconds(1);
    };
    auto [outA, outB] = session::runSidesInProcesses({a.label, forked(a), {}, {}},
                                                     {b.label, forked(b), {}, {}}, stopRequested);
    sigaction(SIGINT, &previous, nullptr);
    for (const session::SideOutcome* side : {&outA, &outB})
        if (!options.quiet && !side->output.empty())
            writeOut("--- " + std::string(side == &outA ? "A (" + a.label : "B (" + b.label)
                     + ") printed ---\n" + side->output
                     + (side->output.back() == '\n' ? "" : "\n"));
    return session::comparisonOf(std::move(outA), std::move(outB), what, compareOptions);
}

/// SCRIPT against a saved run: A runs here, under the saved run's mode and API.
std::optional<session::Comparison> compareAgainstSaved(const Options& options, bool& abandoned)
{
    Json report;
    session::StepFigures saved;
    try {
        report = Json::parseFile(options.against);
        saved = session::sideFromRunReport(report, "saved run (" + options.against + ")");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep compare: %s: %s\n", options.against.c_str(), e.what());
        return std::nullopt;
    }
    Options own = options;
    if (!own.steps)
        own.steps = std::max<std::int64_t>(1, static_cast<std::int64_t>(saved.steps.size()));
    session::CompareOptions compareOptions = compareOptionsOf(own);
    compareOptions.warmUp = false; // one side runs: nothing to make fair
    session::CompareSide a;
    a.script = options.scripts[0];
    a.label = std::filesystem::path(options.scripts[0]).filename().string();
    a.overrides.mode = report.find("mode") && report["mode"].isString() && report["mode"].asString() == "graph"
                           ? run::ModeOverride::Graph
                           : run::ModeOverride::PyNative;
    if (const Json* api = report.find("api"); api && api->isString())
        a.apiProfile = api->asString();
    if (!startPython("compare"))
        return std::nullopt;
    session::Comparison c;
    c.what = session::CompareWhat::Saved;
    c.steps = compareOptions.steps;
    c.tolerance = compareOptions.tolerance;
    c.a = session::runSide(a, compareOptions, c.interrupted, abandoned);
    c.abandoned = abandoned;
    if (static_cast<std::int64_t>(saved.steps.size()) > c.steps)
        saved.steps.resize(static_cast<std::size_t>(c.steps));
    c.b = std::move(saved);
    if (!abandoned)
        python::Host::shutdown();
    session::concludeComparison(c);
    return c;
}

} // namespace

int compareCommand(int argc, char** argv)
{
    Options options;
    if (const int status = parse(argc, argv, options))
        return status;
    if (options.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (!options.sideRequest.empty())
        return runRequestedSide(options);
    if (!options.runSide.empty())
        return runOneRank(options);
    const session::CompareWhat what =
        options.what ? *options.what
                     : (options.against.empty() ? session::CompareWhat::Scripts : session::CompareWhat::Saved);
    if (what == session::CompareWhat::Ranks && dist::launchEnvironment().launched) {
        std::fprintf(stderr, "gradstep compare: --what ranks starts the ranks itself: it cannot run under mpirun\n");
        return 2;
    }
    session::Comparison comparison;
    if (what == session::CompareWhat::Saved) {
        bool abandoned = false;
        std::optional<session::Comparison> c = compareAgainstSaved(options, abandoned);
        if (!c)
            return 1;
        comparison = std::move(*c);
    } else if (session::comparesInProcesses(what, compareOptionsOf(options))) {
        comparison = compareInProcesses(options, what);
    } else {
        if (!startPython("compare"))
            return 1;
        const session::CompareOptions compareOptions = compareOptionsOf(options);
        const auto [a, b] = sidesOf(options, compareOptions);
        comparison = session::compareSides(a, b, what, compareOptions);
        if (!comparison.abandoned)
            python::Host::shutdown();
    }
    if (comparison.interrupted)
        return 130;
    if (!options.quiet)
        writeOut("\n");
    writeOut(session::formatComparison(comparison));
    if (!options.report.empty()
        && !writeAtomically(options.report, session::comparisonToJson(comparison).dump(2) + "\n", "compare"))
        return 1;
    if (comparison.abandoned)
        endWithoutPython(1);
    return comparison.ok() ? 0 : 1;
}

} // namespace gradstep::app
