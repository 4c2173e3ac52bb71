// SPDX-License-Identifier: MIT
#include "migrate/torch_side.h"

#include "tensor/errors.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>

extern char** environ;

namespace gradstep::migrate {

namespace {

/// The hook's exit status when `import torch` fails (torch_capture.py).
constexpr int kTorchMissing = 3;

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

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
    std::vector<char*> pointers;
    for (std::string& a : argv)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, python.c_str(), &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
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
    run.output = readFile(log);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (run.exitCode == kTorchMissing && run.output.find("gradstep-capture: cannot import torch") != std::string::npos)
        run.status = TorchStatus::TorchMissing;
    else if (run.exitCode != 0 || !std::ifstream(directory + "/torch.json"))
        run.status = TorchStatus::ScriptFailed;
    return run;
}

} // namespace gradstep::migrate
