// SPDX-License-Identifier: MIT
#include "migrate/torch_side.h"

#include "io/read_file.h"
#include "io/spawn_with_output.h"
#include "tensor/errors.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <thread>

namespace gradstep::migrate {

namespace {

/// The hook's exit status when `import torch` fails (torch_capture.py).
constexpr int kTorchMissing = 3;

/// Waits for the child; with `cancelled`, polls it and kills the child when it says so (torch
/// ignores nothing of SIGKILL, and the capture directory is thrown away anyway). True when the
/// child was killed for it.
bool waitForChild(pid_t pid, int& status, const std::function<bool()>& cancelled)
{
    if (!cancelled) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return false;
    }
    bool killed = false;
    for (;;) {
        const pid_t done = waitpid(pid, &status, killed ? 0 : WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            return killed;
        if (!killed && cancelled()) {
            ::kill(pid, SIGKILL);
            killed = true;
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace

TorchRun runTorchSide(const std::string& python, const std::string& script, const std::vector<std::string>& args,
                      const std::string& directory, std::int64_t steps, const std::function<bool()>& cancelled)
{
    const auto started = std::chrono::steady_clock::now();
    const std::string hook = directory + "/torch_capture.py";
    const std::string log = directory + "/torch.log";
    {
        std::ofstream out(hook, std::ios::binary);
        out << torchCaptureSource();
        if (!out)
            throw RuntimeError("cannot write " + hook);
    }
    std::vector<std::string> argv = {python, "-B", hook, directory, std::to_string(steps), script};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_t pid = 0;
    const int spawned = spawnWithOutput(std::move(argv), log, pid, ChildInput::Nothing);
    TorchRun run;
    if (spawned != 0) {
        run.status = TorchStatus::TorchMissing;
        run.output = "cannot start " + python;
        return run;
    }
    int status = 0;
    const bool killed = waitForChild(pid, status, cancelled);
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.output = readWholeFile(log);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (killed)
        run.status = TorchStatus::Cancelled;
    else if (run.exitCode == kTorchMissing && run.output.find("gradstep-capture: cannot import torch") != std::string::npos)
        run.status = TorchStatus::TorchMissing;
    else if (run.exitCode != 0 || !std::ifstream(directory + "/torch.json"))
        run.status = TorchStatus::ScriptFailed;
    return run;
}

} // namespace gradstep::migrate
