// The interactive ranks console. What it prints goes to stdout, one answer per command; the ranks'
// own output (what their scripts print, with their "[rank k] " prefix) goes to stderr.
// SPDX-License-Identifier: MIT
#include "app/rank_console.h"

#include "app/cli_common.h"
#include "app/rank_launcher.h"
#include "session/rank_controller.h"
#include "session/rank_spread.h"

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <deque>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace gradstep::app {

namespace {

constexpr const char* kCommands =
    "commands: step (every rank runs its next node), over, out (step over, step out), continue (to the next "
    "breakpoint or the end), pause (a continue under way; Ctrl+C too), where, print NAME [--rank K] (NAME: output K or "
    "input K of the node, #SEQ:K, grad:PARAM), grads, quit\n";

bool isRunCommand(const std::string& command)
{
    return command == "step" || command == "s" || command == "continue" || command == "c" || command == "over"
           || command == "out";
}

/// The controller whose run command Ctrl+C pauses (null between commands: Ctrl+C then ends the
/// console as it always did). requestPause is one lock-free atomic store: safe in a handler.
std::atomic<session::RankController*> g_pausable{nullptr};

extern "C" void pauseOnInterrupt(int)
{
    if (session::RankController* controller = g_pausable.load()) {
        controller->requestPause();
        return;
    }
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
}

/// Standard input, read on a thread of its own so that `pause` reaches a continue under way: the
/// lines come out in order, except that a pause read while a run command is queued or running
/// pauses that command (requestPause) instead of waiting its turn. Shared with the thread, which
/// may outlive the console while it waits for a line.
struct ConsoleInput {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> lines;
    bool ended = false;
    int runsPending = 0;                     ///< run commands queued or running
    std::function<void()> pause;             ///< cleared when the console ends

    static void read(std::shared_ptr<ConsoleInput> input)
    {
        std::string line;
        while (std::getline(std::cin, line)) {
            std::istringstream words(line);
            std::string command;
            words >> command;
            std::lock_guard lock(input->mutex);
            if (command == "pause" && input->runsPending > 0) {
                if (input->pause)
                    input->pause();
                continue;
            }
            if (isRunCommand(command))
                ++input->runsPending;
            input->lines.push_back(line);
            input->ready.notify_one();
        }
        std::lock_guard lock(input->mutex);
        input->ended = true;
        input->ready.notify_one();
    }

    /// The next line; false at the end of input.
    bool next(std::string& line)
    {
        std::unique_lock lock(mutex);
        ready.wait(lock, [this] { return ended || !lines.empty(); });
        if (lines.empty())
            return false;
        line = std::move(lines.front());
        lines.pop_front();
        return true;
    }

    void ranCommand()
    {
        std::lock_guard lock(mutex);
        --runsPending;
    }
};

void printPauses(const std::vector<session::RankPause>& pauses, bool eachRank)
{
    std::string text = "[gradstep] " + session::ranksAgreementText(pauses) + "\n";
    if (eachRank)
        for (const session::RankPause& p : pauses)
            text += "rank " + std::to_string(p.rank) + ": " + p.describe() + "\n";
    writeOut(text);
    std::fflush(stdout);
}

bool allFinished(const std::vector<session::RankPause>& pauses)
{
    for (const session::RankPause& p : pauses)
        if (p.status != "finished")
            return false;
    return true;
}

std::string tensorText(const session::RankTensor& t)
{
    std::string text = "rank " + std::to_string(t.rank) + " " + t.name + ": ";
    if (!t.error.empty())
        return text + t.error + "\n";
    std::string shape = "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i)
        shape += (i ? ", " : "") + std::to_string(t.shape[i]);
    text += t.label + ", shape " + shape + "] " + t.dtype + "\n ";
    constexpr std::size_t kShown = 200;
    for (std::size_t i = 0; i < t.values.size() && i < kShown; ++i) {
        char value[32];
        std::snprintf(value, sizeof value, " %.9g", t.values[i]);
        text += value;
        if (i % 10 == 9 && i + 1 < t.values.size())
            text += "\n ";
    }
    if (t.values.size() > kShown)
        text += " ... (" + std::to_string(t.values.size() - kShown) + " more)";
    return text + "\n";
}

/// print NAME [--rank K]: one rank or every rank.
void printTensor(session::RankController& controller, std::istringstream& words)
{
    std::vector<std::string> tokens;
    for (std::string w; words >> w;)
        tokens.push_back(w);
    int rank = -1;
    if (tokens.size() >= 2 && tokens[tokens.size() - 2] == "--rank") {
        long long k = 0;
        if (!parseWholeNumber(tokens.back(), 1023, k) || k >= controller.ranks()) {
            writeErr("gradstep debug: print: --rank " + tokens.back() + " is not one of the "
                     + std::to_string(controller.ranks()) + " ranks\n");
            return;
        }
        rank = static_cast<int>(k);
        tokens.resize(tokens.size() - 2);
    }
    std::string name;
    for (const std::string& t : tokens)
        name += (name.empty() ? "" : " ") + t;
    if (name.empty()) {
        writeErr("gradstep debug: print needs a tensor: output K, input K, #SEQ:K or grad:PARAM\n");
        return;
    }
    for (int r = 0; r < controller.ranks(); ++r)
        if (rank < 0 || r == rank)
            writeOut(tensorText(controller.tensor(r, name)));
    std::fflush(stdout);
}

} // namespace

int runRankConsole(int ranks, const std::vector<std::string>& debugArguments)
{
    session::RankControllerOptions options;
    options.launcher = rankServeLauncher(ranks);
    if (options.launcher.empty()) {
        writeErr("gradstep debug: --ranks needs Open MPI's mpirun, which is not on PATH; install it (Debian: "
                 "apt-get install openmpi-bin)\n");
        return 127;
    }
    options.debugArguments = debugArguments;
    options.ranks = ranks;
    session::RankController controller(options);
    const bool prompt = ::isatty(0);
    auto input = std::make_shared<ConsoleInput>();
    input->pause = [&controller] { controller.requestPause(); };
    std::thread(ConsoleInput::read, input).detach(); // it may wait for a line forever
    std::signal(SIGINT, pauseOnInterrupt);
    struct EndInput {
        ConsoleInput& input;
        ~EndInput()
        {
            std::lock_guard lock(input.mutex);
            input.pause = nullptr;
        }
    } endInput{*input};
    try {
        printPauses(controller.start(), false);
        std::string line;
        for (;;) {
            if (prompt) {
                std::fputs("(gradstep ranks) ", stdout);
                std::fflush(stdout);
            }
            if (!input->next(line))
                break;
            std::istringstream words(line);
            std::string command;
            words >> command;
            if (command.empty())
                continue;
            if (command == "quit" || command == "q")
                break;
            if (isRunCommand(command)) {
                g_pausable = &controller;
                struct Ran {
                    ConsoleInput& input;
                    ~Ran()
                    {
                        g_pausable = nullptr;
                        input.ranCommand();
                    }
                } ran{*input};
                const auto pauses = command == "over"  ? controller.stepOver()
                                    : command == "out" ? controller.stepOut()
                                    : command[0] == 's' ? controller.step()
                                                        : controller.continueRun();
                printPauses(pauses, false);
                if (allFinished(pauses))
                    break;
            } else if (command == "pause") {
                writeErr("gradstep debug: nothing runs to pause (pause stops a continue under way)\n");
            } else if (command == "where" || command == "w") {
                printPauses(controller.where(), true);
            } else if (command == "print" || command == "p") {
                printTensor(controller, words);
            } else if (command == "grads" || command == "g") {
                writeOut(session::gradientSpreadText(session::gradientSpread(controller.gradients())));
                std::fflush(stdout);
            } else if (command == "help" || command == "h") {
                writeOut(kCommands);
            } else {
                writeErr("gradstep debug: unknown command '" + command + "'; " + kCommands);
            }
        }
        controller.stop();
        return 0;
    } catch (const session::RanksEnded& e) {
        writeErr(std::string("gradstep debug: ") + e.what() + "\n");
        return 1;
    } catch (const std::exception& e) { // a malformed answer; the controller ends the ranks
        writeErr(std::string("gradstep debug: the ranks' answer could not be read: ") + e.what() + "\n");
        return 1;
    }
}

} // namespace gradstep::app
