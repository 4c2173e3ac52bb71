// `gradstep run`: the script runs on a worker thread while this thread waits, watching for Ctrl-C.
// SPDX-License-Identifier: MIT
#include "app/cli_run.h"

#include "python/host/host.h"
#include "python/host/script_runner.h"
#include "app/cli_common.h"
#include "app/rank_divergence.h"
#include "app/rank_launcher.h"
#include "app/rank_report.h"
#include "app/shard_overlap.h"
#include "app/step_report.h"
#include "dist/communicator.h"

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gradstep::app {

namespace {

constexpr const char* kUsage = R"(usage: gradstep run SCRIPT [--steps N] [--seed S] [--api 2.x|1.10] [--mode pynative|graph]
                    [--checkpoint FILE.ckpt] [--report FILE.json] [--quiet] [--timeout SECONDS]
                    [--ranks N [--watch ranks-diverge[:TOL]] [--watch shard-overlap]]
                    [-- ARGS...]

Runs SCRIPT, a MindSpore-style Python script, in gradstep's embedded Python 3.11 with gradstep's
own `mindspore` package (any installed MindSpore is not used), as `python3 SCRIPT ARGS...` would:
__name__ is "__main__", the script's directory comes first on sys.path, ARGS are sys.argv[1:].

A training step is one call of a gradient function made by grad, value_and_grad or
GradOperation (or one TrainOneStepCell call); a call nested in another (grad of grad) belongs to
the outer step. After the script, a table shows per step the loss (the first output of the
value; "-" when the gradient function returns no value) and each parameter's gradient norm (each
differentiated input's when the steps have no parameters).

options:
  --steps N          stop after the N-th step's optimizer update (or when step N+1 begins if no
                     update follows); the script's remaining code does not run
  --seed S           call mindspore.set_seed(S) before the script starts (a set_seed call in the
                     script still applies, as in MindSpore)
  --api 2.x|1.10     the MindSpore API the script sees (default 2.x); under 1.10 the top-level
                     names MindSpore 1.10 lacked (mindspore.value_and_grad, grad, jit, ...) are
                     absent, while mindspore.ops.value_and_grad exists
  --mode MODE        pynative or graph, whatever the script sets with set_context(mode=...):
                     graph compiles Cells, @jit functions and the gradient functions over them
                     from their source before running them
  --checkpoint FILE  load a MindSpore checkpoint into the script's network when the script first
                     calls a Cell holding one of its Parameters (as load_param_into_net would);
                     what loaded is said on stderr; a bad file is an error before the script runs
  --report FILE      write the steps as JSON: {"script", "api", "mode", "steps": [{"step", "loss",
                     "params": [{"name", "shape", "grad_norm", "grad_sum", "grad_first5",
                     "value_norm"}], "input_grad_norms", "updated", "learning_rate"}]};
                     value_norm is the parameter's L2 norm when its gradient was computed;
                     learning_rate what the step's optimizer update used (null: none said);
                     "mode" is "graph" when
                     any node ran in a compiled graph, else "pynative"; numbers that are NaN or
                     infinite are written as null
  --timeout SECONDS  stop the script after SECONDS (a decimal number) and report where it was
  --quiet            do not show what the script prints (errors and the step table still show)
  --ranks N          data parallel: run N ranks of the script through Open MPI's mpirun (as root
                     with --allow-run-as-root; --oversubscribe, so N may exceed the cores);
                     mindspore.communication.init() joins them, each rank's lines start with
                     "[rank k] ", and rank 0 prints the step table with one column per rank: the
                     rank's gradient norm before the all-reduce. `mpirun -n N gradstep run
                     SCRIPT` does the same (across machines: mpirun --hostfile FILE). A rank that
                     fails stops the others (exit status 1); a rank that never reaches a
                     collective is named after GRADSTEP_COLLECTIVE_TIMEOUT seconds (default 120)
  --watch ranks-diverge[:TOL]
                     with several ranks: after every optimizer update compare each parameter
                     with rank 0's; the first one that differs by more than TOL * max(1, |value|)
                     (default 1e-6) on some rank stops every rank, named with its step (exit
                     status 1)
  --watch shard-overlap
                     with several ranks: before every training step compare the samples the
                     ranks read for it from their random-access data sets (NumPy slices, MNIST,
                     a GeneratorDataset over __getitem__: the row indices are the sample ids);
                     a sample two ranks received in one step (a data set not sharded with
                     num_shards / shard_id) stops every rank, named with the step, the ranks
                     and the sample (exit status 1). Generators and iterables have no ids and
                     are not seen
  --help             show this help
  --                 everything after it is passed to the script

A script error is reported on stderr as FILE:LINE:COL: error: TYPE: MESSAGE for the innermost
frame in the script's files, with the source line, a caret under the column and the traceback of
the user's frames.

exit status: 0 the script finished (or stopped after --steps N), 1 it raised an error or timed
out, 2 bad usage,
130 interrupted with Ctrl-C (a second Ctrl-C ends gradstep at once).
)";

struct Options {
    std::string script;
    std::vector<std::string> args;
    double timeoutSeconds = 0.0;
    std::int64_t steps = 0;
    std::optional<std::uint64_t> seed;
    std::optional<std::string> checkpoint;
    std::string api = "2.x";
    run::ModeOverride mode = run::ModeOverride::AsWritten;
    std::string report;
    bool quiet = false;
    bool help = false;
    int ranks = 0;                      ///< --ranks N: launch N ranks through mpirun
    std::optional<double> ranksDiverge; ///< --watch ranks-diverge[:TOL]
    bool shardOverlap = false;          ///< --watch shard-overlap
    std::vector<std::string> forwarded; ///< the arguments without --ranks, for each rank
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep run: %s\n(see gradstep run --help)\n", message.c_str());
    return 2;
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
        } else if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--quiet" || arg == "-q") {
            options.quiet = true;
        } else if (arg == "--steps" || arg == "--seed") {
            long long value = 0;
            if (i + 1 >= argc || !parseWholeNumber(argv[i + 1], std::numeric_limits<std::int64_t>::max(), value)
                || (arg == "--steps" && value == 0))
                return usageError(arg + (arg == "--steps" ? " needs a positive whole number" : " needs a whole number >= 0"));
            if (arg == "--steps")
                options.steps = value;
            else
                options.seed = static_cast<std::uint64_t>(value);
            ++i;
        } else if (arg == "--ranks") {
            long long value = 0;
            if (i + 1 >= argc || !parseWholeNumber(argv[i + 1], 1024, value) || value == 0)
                return usageError("--ranks needs a whole number from 1 to 1024");
            options.ranks = static_cast<int>(value);
            ++i;
            continue;
        } else if (arg == "--watch") {
            const std::string value = i + 1 < argc ? argv[i + 1] : "";
            std::string error;
            if (value == "shard-overlap")
                options.shardOverlap = true;
            else if (!(options.ranksDiverge = parseRanksDivergeWatch(value, error)))
                return usageError(error);
            ++i;
        } else if (arg == "--api") {
            if (i + 1 >= argc || (std::strcmp(argv[i + 1], "2.x") != 0 && std::strcmp(argv[i + 1], "1.10") != 0))
                return usageError("--api needs 2.x or 1.10");
            options.api = argv[++i];
        } else if (arg == "--mode") {
            const std::string value = i + 1 < argc ? argv[i + 1] : "";
            if (value != "pynative" && value != "graph")
                return usageError("--mode needs pynative or graph");
            options.mode = value == "graph" ? run::ModeOverride::Graph : run::ModeOverride::PyNative;
            ++i;
        } else if (arg == "--checkpoint") {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return usageError("--checkpoint needs a .ckpt file");
            options.checkpoint = argv[++i];
        } else if (arg == "--report") {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return usageError("--report needs a file name");
            options.report = argv[++i];
        } else if (arg == "--timeout") {
            if (i + 1 >= argc || !parseSeconds(argv[i + 1], options.timeoutSeconds))
                return usageError("--timeout needs a positive number of seconds");
            ++i;
        } else if (arg.size() > 1 && arg[0] == '-') {
            return usageError("unknown option " + arg);
        } else if (options.script.empty()) {
            options.script = arg;
        } else {
            return usageError("unexpected argument " + arg + " (arguments for the script go after --)");
        }
    }
    if (!options.help && options.script.empty())
        return usageError("no script given");
    // Each rank runs the same command without --ranks.
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) {
            options.forwarded.insert(options.forwarded.end(), argv + i, argv + argc);
            break;
        }
        if (std::strcmp(argv[i], "--ranks") == 0)
            ++i;
        else
            options.forwarded.emplace_back(argv[i]);
    }
    return 0;
}

} // namespace

int runCommand(int argc, char** argv)
{
    Options options;
    if (const int status = parse(argc, argv, options))
        return status;
    if (options.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const dist::Launch launch = dist::launchEnvironment();
    if (options.ranks > 0) {
        if (launch.launched)
            return usageError("--ranks starts the ranks itself: it cannot be used under mpirun");
        return launchRanks(options.ranks, options.forwarded);
    }
    if (launch.launched && launch.size > 1)
        setOutputPrefix("[rank " + std::to_string(launch.rank) + "] ");
    if (!startPython("run"))
        return 1;
    python::RunRequest request;
    request.script = options.script;
    request.args = options.args;
    request.apiProfile = options.api;
    request.overrides.seed = options.seed;
    request.overrides.checkpoint = options.checkpoint;
    request.overrides.mode = options.mode;
    request.timeout = std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000.0));
    if (!options.quiet)
        request.output = [](run::OutputStream stream, std::string_view text) {
            stream == run::OutputStream::Stdout ? writeOut(text) : writeErr(text);
        };
    python::RunResult result;
    std::string divergence; ///< what ranks-diverge or shard-overlap found (every rank at the same point)
    std::vector<StepRecord> steps;
    bool stoppedAfterSteps = false;
    bool ranGraph = false;
    {
        python::ScriptRunner runner;
        StepReport report(options.steps, [&runner] { runner.stopNow(); });
        RankDivergenceWatch watch(options.ranksDiverge.value_or(0.0));
        if (options.ranksDiverge)
            report.setAfterUpdate([&](const UpdateEvent& event, std::int64_t step) {
                if (auto finding = watch.check(event, step)) {
                    divergence = *finding;
                    runner.stopNow();
                }
            });
        std::optional<ShardOverlapWatch> overlap;
        if (options.shardOverlap) {
            overlap.emplace();
            report.setBeforeStep([&](std::int64_t step) {
                if (auto finding = overlap->check(step)) {
                    divergence = *finding;
                    runner.stopNow();
                }
            });
        }
        request.observer = &report;
        runner.start(std::move(request));
        result = waitWatchingCtrlC(runner);
        steps = report.steps();
        ranGraph = report.ranGraphNodes();
        stoppedAfterSteps = report.stopRequested() && python::Host::interruptCount() == 0;
    }
    if (!result.abandoned)
        python::Host::shutdown();
    if (result.status == python::RunStatus::Stopped && stoppedAfterSteps) {
        result.status = python::RunStatus::Ok;
        writeOut("[gradstep] stopped after step " + std::to_string(options.steps) + " (--steps)\n");
    }
    finishOutputLines();
    if (!divergence.empty()) // every rank stopped at the same update: a clean end, reported below
        result.status = python::RunStatus::Ok;
    if (result.diagnostic && result.status != python::RunStatus::Ok)
        writeErr(result.diagnostic->format());
    finishOutputLines();
    // A failed rank ends the whole job at once: the others may wait for it in a collective.
    if (dist::usesMpi() && result.status != python::RunStatus::Ok)
        dist::abortAll(1);
    if (!divergence.empty() && dist::rank("hccl_world_group") == 0)
        writeErr("[gradstep] " + divergence);
    std::vector<std::vector<double>> rankNorms;
    if (dist::usesMpi()) {
        rankNorms = dist::gatherToRoot(stepGradientNorms(steps));
        dist::finalize();
        if (rankNorms.empty()) // not rank 0: rank 0 shows the table for every rank
            return divergence.empty() ? 0 : 1;
    }
    const std::string table = formatStepTable(steps);
    writeOut(rankNorms.empty() ? table : appendRankColumns(table, rankNorms));
    if (!options.report.empty()) {
        const std::string mode = ranGraph ? "graph" : "pynative";
        Json report = stepReportJson(options.script, options.api, mode, steps);
        if (!rankNorms.empty())
            report["rank_grad_norms"] = rankNormsJson(rankNorms);
        const std::string json = report.dump(2) + "\n";
        if (!writeAtomically(options.report, json, "run"))
            return 1;
    }
    if (result.abandoned)
        endWithoutPython(1);
    switch (result.status) {
    case python::RunStatus::Ok: return divergence.empty() ? 0 : 1;
    case python::RunStatus::Stopped: return 130;
    case python::RunStatus::Error:
        // python3 ends with SIGINT's status on a KeyboardInterrupt nobody caught, raised or not.
        if (result.diagnostic && result.diagnostic->type == "KeyboardInterrupt")
            return 130;
        break;
    case python::RunStatus::TimedOut: break;
    }
    return 1;
}

} // namespace gradstep::app
