// `gradstep run`: the script runs on a worker thread while this thread waits, watching for Ctrl-C.
// SPDX-License-Identifier: MIT
#include "app/cli_run.h"

#include "python/host.h"
#include "python/script_runner.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gradstep::app {

namespace {

constexpr const char* kUsage = R"(usage: gradstep run SCRIPT [--timeout SECONDS] [--quiet] [-- ARGS...]

Runs SCRIPT, a MindSpore-style Python script, in gradstep's embedded Python 3.11 with gradstep's
own `mindspore` package (any installed MindSpore is not used), as `python3 SCRIPT ARGS...` would:
__name__ is "__main__", the script's directory comes first on sys.path, ARGS are sys.argv[1:].

options:
  --timeout SECONDS  stop the script after SECONDS (a decimal number) and report where it was
  --quiet            do not show what the script prints (errors are still reported)
  --help             show this help
  --                 everything after it is passed to the script

A script error is reported on stderr as FILE:LINE:COL: error: TYPE: MESSAGE for the innermost
frame in the script's files, with the source line, a caret under the column and the traceback of
the user's frames.

exit status: 0 the script finished, 1 it raised an error or timed out, 2 bad usage,
130 interrupted with Ctrl-C (a second Ctrl-C ends gradstep at once).
)";

struct Options {
    std::string script;
    std::vector<std::string> args;
    double timeoutSeconds = 0.0;
    bool quiet = false;
    bool help = false;
};

int usageError(const std::string& message)
{
    std::fprintf(stderr, "gradstep run: %s\n(see gradstep run --help)\n", message.c_str());
    return 2;
}

bool parseSeconds(const char* text, double& seconds)
{
    char* end = nullptr;
    seconds = std::strtod(text, &end);
    return end != text && *end == '\0' && seconds > 0.0 && seconds < 1e9;
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
    return 0;
}

void write(std::FILE* stream, std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fflush(stream);
}

python::RunResult runToEnd(python::ScriptRunner& runner)
{
    bool stopRequested = false;
    for (;;) {
        if (auto result = runner.waitFor(std::chrono::milliseconds(100)))
            return *result;
        if (!stopRequested && python::Host::interruptCount() > 0) {
            runner.stop();
            stopRequested = true;
        }
    }
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
    try {
        python::Host::start();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep run: %s\n", e.what());
        return 1;
    }
    python::RunRequest request;
    request.script = options.script;
    request.args = options.args;
    request.timeout = std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000.0));
    if (!options.quiet)
        request.output = [](python::OutputStream stream, std::string_view text) {
            write(stream == python::OutputStream::Stdout ? stdout : stderr, text);
        };
    python::RunResult result;
    {
        python::ScriptRunner runner;
        runner.start(std::move(request));
        result = runToEnd(runner);
    }
    python::Host::shutdown();
    if (result.diagnostic && result.status != python::RunStatus::Ok)
        write(stderr, result.diagnostic->format());
    switch (result.status) {
    case python::RunStatus::Ok: return 0;
    case python::RunStatus::Stopped: return 130;
    case python::RunStatus::Error:
    case python::RunStatus::TimedOut: break;
    }
    return 1;
}

} // namespace gradstep::app
