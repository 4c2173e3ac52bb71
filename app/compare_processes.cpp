// Both sides of a comparison at once, in two child processes. SPDX-License-Identifier: MIT
#include "app/compare_processes.h"

#include "io/json.h"
#include "io/temporary_directory.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace gradstep::app {

namespace {

std::atomic<bool> g_interrupted{false};

void onInterrupt(int) { g_interrupted = true; }

struct Child {
    pid_t pid = -1;
    int status = 0;
    bool ended = false;
    std::filesystem::path side, output;
};

Child spawnSide(const SideCommand& command, const std::filesystem::path& folder, const char* name)
{
    Child child;
    child.side = folder / (std::string(name) + ".json");
    child.output = folder / (std::string(name) + ".out");
    std::vector<std::string> args{"gradstep", "compare"};
    args.insert(args.end(), command.args.begin(), command.args.end());
    // The side's own options go before a "--" that starts the script's arguments.
    auto end = std::find(args.begin(), args.end(), std::string("--"));
    end = args.insert(end, {"--run-side", name, "--side-report", child.side.string()});
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, child.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int error = posix_spawn(&child.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        child.pid = -1;
        child.ended = true;
        child.status = -error;
    }
    return child;
}

std::string readAll(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string howItEnded(const Child& child)
{
    if (child.pid < 0)
        return "could not start (" + std::string(std::strerror(-child.status)) + ")";
    if (WIFSIGNALED(child.status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(child.status)) + " ("
               + strsignal(WTERMSIG(child.status)) + ")";
    return "ended with status " + std::to_string(WEXITSTATUS(child.status));
}

SideOutcome outcomeOf(const Child& child, const SideCommand& command)
{
    SideOutcome outcome;
    outcome.output = readAll(child.output);
    outcome.interrupted = child.pid >= 0 && WIFEXITED(child.status) && WEXITSTATUS(child.status) == 130;
    try {
        if (std::filesystem::exists(child.side)) {
            outcome.figures = session::sideFromJson(Json::parseFile(child.side.string()));
            return outcome;
        }
    } catch (const std::exception& e) {
        outcome.figures.error = std::string("its process wrote an unreadable result: ") + e.what();
    }
    outcome.figures.label = command.label;
    if (!outcome.figures.error)
        outcome.figures.error = outcome.interrupted ? std::string("interrupted")
                                                    : "its process " + howItEnded(child)
                                                          + " without a result";
    return outcome;
}

} // namespace

bool sidesRunInParallel()
{
    return std::thread::hardware_concurrency() >= 2;
}

std::pair<SideOutcome, SideOutcome> runSidesInProcesses(const SideCommand& a, const SideCommand& b)
{
    const TemporaryDirectory folder("gradstep-compare");
    struct sigaction action {}, previous {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous);
    g_interrupted = false;
    Child children[2] = {spawnSide(a, folder.path(), "a"), spawnSide(b, folder.path(), "b")};
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> interruptedAt;
    bool passedOn = false;
    while (!(children[0].ended && children[1].ended)) {
        for (Child& c : children)
            if (!c.ended && waitpid(c.pid, &c.status, WNOHANG) == c.pid)
                c.ended = true;
        if (g_interrupted && !interruptedAt)
            interruptedAt = Clock::now();
        // A terminal's Ctrl-C reached the children too; a SIGINT sent to this process alone did
        // not: pass it on when they are still running a second later.
        if (interruptedAt && !passedOn && Clock::now() - *interruptedAt > std::chrono::seconds(1)) {
            for (Child& c : children)
                if (!c.ended)
                    kill(c.pid, SIGINT);
            passedOn = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    sigaction(SIGINT, &previous, nullptr);
    return {outcomeOf(children[0], a), outcomeOf(children[1], b)};
}

} // namespace gradstep::app
