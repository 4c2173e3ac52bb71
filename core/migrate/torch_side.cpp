// SPDX-License-Identifier: MIT
#include "migrate/torch_side.h"

#include "io/read_file.h"
#include "io/spawn_with_output.h"
#include "tensor/errors.h"

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sys/wait.h>

namespace gradstep::migrate {

namespace {

/// The hook's exit status when `import torch` fails (torch_capture.py).
constexpr int kTorchMissing = 3;

} // namespace

TorchRun runTorchSide(const std::string& python, const std::string& script, const std::vector<std::string>& args,
                      const std::string& directory, std::int64_t steps)
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
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.output = readWholeFile(log);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (run.exitCode == kTorchMissing && run.output.find("gradstep-capture: cannot import torch") != std::string::npos)
        run.status = TorchStatus::TorchMissing;
    else if (run.exitCode != 0 || !std::ifstream(directory + "/torch.json"))
        run.status = TorchStatus::ScriptFailed;
    return run;
}

} // namespace gradstep::migrate
