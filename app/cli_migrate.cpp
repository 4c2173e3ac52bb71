// SPDX-License-Identifier: MIT
#include "app/cli_migrate.h"

#include "app/cli_common.h"
#include "migrate/matching.h"
#include "migrate/migration.h"
#include "migrate/report.h"
#include "python/host/host.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace gradstep::app {

namespace {

constexpr const char* kUsage = R"(usage: gradstep migrate TORCH_SCRIPT MS_SCRIPT [--steps N] [--map MAP.json] [--tolerance T]
                        [--report FILE.json] [--no-copy-weights]

Runs TORCH_SCRIPT with PyTorch (Debian's python3-torch, in a child python3) and MS_SCRIPT, its
MindSpore port, in gradstep, both unchanged, and compares them layer by layer. The model is the
module (Cell) the script calls whose parameters receive gradients, found by hooks; PyTorch's initial
parameters and buffers are copied into the port's matching Parameters and the port's network and
loss are fed PyTorch's batch, so both start identical. Then N training steps run on both sides (a
step ends with the optimizer's update) and every module's forward output, the loss, every
gradient and every parameter and buffer after the update are compared in execution order. The
first pair apart by more than the tolerance is the first divergence; its explanation names the
known pitfall behind it with the arguments on both sides (Conv2d padding vs pad_mode, BatchNorm
momentum, LeakyReLU negative_slope vs alpha, GELU approximate, loss reduction, Dropout p vs
keep_prob, optimizer settings, train vs eval mode, float64 or NHWC input, ...).

Parameters are matched by module path with MindSpore's names (BatchNorm's weight/bias/
running_mean/running_var are gamma/beta/moving_mean/moving_variance), then in order by shape;
anything left unmatched is listed.

options:
  --steps N          training steps to compare (default 1)
  --map FILE         a JSON object {"torch name": "mindspore name"} pairing parameters or module
                     paths the automatic matching gets wrong
  --tolerance T      relative tolerance, scaled to the magnitude of the values (default 1e-5)
  --report FILE      write the comparison as JSON: {"verdict": "equal"|"diverges",
                     "first_divergence": null | {"torch", "mindspore", "kind", "max_abs_diff",
                     "rel_diff", "explanation"}, "layers": [{"torch", "mindspore",
                     "forward_max_abs_diff", "shape_torch", "shape_mindspore"}], "params": [{"torch",
                     "mindspore", "shape", "grad_max_abs_diff", "update_max_abs_diff"}],
                     "unmatched": {"torch": [...], "mindspore": [...]}}; kind is one of shape,
                     forward, loss, gradient, update, state, error; with --no-copy-weights also
                     "initial": [{"torch", "mindspore", "torch_initialiser", "mindspore_initialiser",
                     "torch_stats", "mindspore_stats", "differs"}]
  --no-copy-weights  keep each side's own initial values and compare their distributions (mean,
                     std, bounds, the initialiser each side used)
  --help             show this help

environment: GRADSTEP_MIGRATE_PYTHON names the python3 that runs TORCH_SCRIPT (one with torch,
such as a virtual environment's); by default Debian's python3, where python3-torch installs.

exit status: 0 compared (whether or not they diverge), 1 a script could not run at all (or
python3-torch is not installed), 2 bad usage.
)";

struct Options {
    migrate::MigrationRequest request;
    std::string map, report;
    bool help = false;
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep migrate: %s\n(see gradstep migrate --help)\n", message.c_str());
    return 2;
}

bool parseTolerance(const char* text, double& value)
{
    char* end = nullptr;
    value = std::strtod(text, &end);
    return end != text && *end == '\0' && std::isfinite(value) && value > 0;
}

int parse(int argc, char** argv, Options& options)
{
    std::vector<std::string> scripts;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--no-copy-weights") {
            options.request.copyWeights = false;
        } else if (arg == "--steps") {
            long long steps = 0;
            if (!hasValue || !parseWholeNumber(argv[i + 1], 1000000, steps) || steps == 0)
                return usageError("--steps needs a positive whole number");
            options.request.steps = steps;
            ++i;
        } else if (arg == "--tolerance") {
            if (!hasValue || !parseTolerance(argv[i + 1], options.request.tolerance))
                return usageError("--tolerance needs a positive number (a relative tolerance such as 1e-5)");
            ++i;
        } else if (arg == "--map" || arg == "--report") {
            if (!hasValue || argv[i + 1][0] == '\0')
                return usageError(arg + " needs a file name");
            (arg == "--map" ? options.map : options.report) = argv[++i];
        } else if (arg.size() > 1 && arg[0] == '-') {
            return usageError("unknown option '" + arg + "'");
        } else {
            scripts.push_back(arg);
        }
    }
    if (options.help)
        return 0;
    if (scripts.size() != 2)
        return usageError(scripts.size() < 2 ? "needs two scripts: TORCH_SCRIPT MS_SCRIPT"
                                             : "takes two scripts, got " + std::to_string(scripts.size()));
    options.request.torchScript = scripts[0];
    options.request.msScript = scripts[1];
    for (const std::string& s : scripts)
        if (!std::ifstream(s))
            return usageError("cannot read the script '" + s + "'");
    if (!options.map.empty()) {
        try {
            options.request.userMap = migrate::readUserMap(options.map);
        } catch (const std::exception& e) {
            return usageError(std::string("--map: ") + e.what());
        }
    }
    return 0;
}

} // namespace

int migrateCommand(int argc, char** argv)
{
    Options options;
    if (const int status = parse(argc, argv, options))
        return status;
    if (options.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (const char* python = std::getenv("GRADSTEP_MIGRATE_PYTHON"); python && *python)
        options.request.python = python;
    if (!startPython("migrate"))
        return 1;
    const migrate::MigrationOutcome outcome = migrate::runMigration(options.request);
    python::Host::shutdown();
    if (outcome.status != migrate::MigrationStatus::Compared) {
        if (outcome.msError)
            writeErr(outcome.msError->format());
        writeErr("gradstep migrate: " + outcome.message + "\n");
        return 1;
    }
    if (outcome.msError)
        writeErr(outcome.msError->format());
    writeOut(migrate::reportText(outcome.result));
    char timing[160];
    std::snprintf(timing, sizeof timing, "time: PyTorch side %.2f s (python3 and torch start-up included), MindSpore side %.2f s\n",
                  outcome.torchSeconds, outcome.msSeconds);
    writeOut(timing);
    if (!options.report.empty()
        && !writeAtomically(options.report, migrate::reportJson(outcome.result).dump(2) + "\n", "migrate"))
        return 1;
    return 0;
}

} // namespace gradstep::app
