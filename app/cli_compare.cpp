// `gradstep compare`: two runs of a script's first step (session/compare.h), a table on stdout
// and optionally the JSON report. SPDX-License-Identifier: MIT
#include "app/cli_compare.h"

#include "app/cli_common.h"

#include "python/host/host.h"
#include "session/compare.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace gradstep::app {

namespace {

constexpr const char* kUsage =
    R"(usage: gradstep compare SCRIPT --what has-aux|mode|grad-api|api [--report FILE.json]
                        [--seed S] [--timeout SECONDS] [--no-warm-up] [--quiet]
                        [-- ARGS...]

Runs SCRIPT twice, under settings A and B, from the same seed (so identical weights and data), up
to the end of its first training step: the first call of a gradient function (grad,
value_and_grad, GradOperation, a TrainOneStepCell step) and the optimizer update after it. Then
compares the two steps' gradients parameter by parameter.

  --what has-aux   A: has_aux forced on for every grad / value_and_grad, B: forced off
  --what mode      A: PyNative, B: graph mode (B reports an error when this build has no
                   graph mode)
  --what grad-api  A: value_and_grad (grad-only calls run through it, one forward), B: the
                   grad-only fallback (each value_and_grad call runs as `value = fn(...)` and
                   then `grad(fn)(...)`, so the forward runs twice)
  --what api       A: the MindSpore 2.x API, B: the 1.10 API (no mindspore.value_and_grad or
                   mindspore.grad at the top level); a side that fails shows its error

options:
  --what SETTING     what to compare (required; see above)
  --report FILE      also write the comparison as JSON to FILE (replaced atomically):
                     {"what", "a": {label, loss, forward_passes, nodes, nodes_by_phase, seconds,
                     run_seconds, params: [{name, shape, grad_norm, grad_sum, grad_first5}],
                     error?, error_location?, later_error?}, "b": {...},
                     "diff": [{name, norm_a, norm_b, max_abs_diff, rel_diff, verdict}]}
                     (numbers that are not finite are null)
  --seed S           the seed set before each run (mindspore.set_seed), default 0; a set_seed
                     call in the script still applies
  --timeout SECONDS  stop a run after SECONDS (default 300)
  --no-warm-up       skip the warm-up: by default A runs once more first, silently, so that
                     one-time costs of the first run in the process (lazy imports, allocator,
                     BLAS buffers) do not inflate A's seconds
  --quiet            do not show what the script prints
  --help             show this help
  --                 everything after it is passed to the script

The table: per parameter the gradient norms A and B, the largest absolute difference, the
relative difference |A - B| / max(|A|, |B|) (L2 norms) and a verdict: equal (<= 1e-6), close
(<= 1e-3), different, missing (one side has no such gradient or another shape). Then per side:
the loss (the first output of the differentiated function), the forward passes of the step
(how often the function's forward ran, counted from the forward ops reading its weights), the
nodes executed (forward, backward and update ops) and the step's seconds.

exit status: 0 both runs gave a step, 1 a run failed before its first step (its error is shown)
or the report could not be written, 2 bad usage, 130 interrupted with Ctrl-C.
)";

struct Options {
    std::string script;
    std::vector<std::string> args;
    std::optional<session::CompareWhat> what;
    std::string report;
    std::uint64_t seed = 0;
    double timeoutSeconds = 300.0;
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
    } else if (arg == "--what" || arg == "--report" || arg == "--seed" || arg == "--timeout") {
        const char* value = valueOf(argc, argv, i);
        if (!value)
            return 2;
        if (arg == "--what" && !(options.what = session::parseCompareWhat(value)))
            return usageError(std::string("unknown --what '") + value
                              + "' (expected has-aux, mode, grad-api or api)");
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
            if (options.script.empty() && i + 1 < argc)
                options.script = argv[++i];
            for (++i; i < argc; ++i)
                options.args.emplace_back(argv[i]);
        } else if (arg.size() > 1 && arg[0] == '-') {
            if (const int status = parseOption(argc, argv, i, options))
                return status;
        } else if (options.script.empty()) {
            options.script = arg;
        } else {
            return usageError("unexpected argument " + arg
                              + " (arguments for the script go after --)");
        }
    }
    if (options.help)
        return 0;
    if (options.script.empty())
        return usageError("no script given");
    if (!options.what)
        return usageError("--what is required (has-aux, mode, grad-api or api)");
    return 0;
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
    if (!startPython("compare"))
        return 1;
    session::CompareOptions compareOptions;
    compareOptions.seed = options.seed;
    compareOptions.warmUp = options.warmUp;
    compareOptions.args = options.args;
    compareOptions.timeout =
        std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000.0));
    compareOptions.cancelled = [] { return python::Host::interruptCount() > 0; };
    if (!options.quiet)
        compareOptions.output = [](run::OutputStream stream, std::string_view text) {
            stream == run::OutputStream::Stdout ? writeOut(text) : writeErr(text);
        };
    const session::Comparison comparison =
        session::compare(options.script, *options.what, compareOptions);
    if (!comparison.abandoned)
        python::Host::shutdown();
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
