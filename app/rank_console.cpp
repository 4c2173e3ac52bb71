// The interactive ranks console. What it prints goes to stdout, one answer per command; the ranks'
// own output (what their scripts print, with their "[rank k] " prefix) goes to stderr.
// SPDX-License-Identifier: MIT
#include "app/rank_console.h"

#include "app/cli_common.h"
#include "app/rank_launcher.h"
#include "session/rank_controller.h"
#include "session/rank_spread.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace gradstep::app {

namespace {

constexpr const char* kCommands =
    "commands: step (every rank runs its next node), continue (to the next breakpoint or the end), where, "
    "print NAME [--rank K] (NAME: output K or input K of the node, #SEQ:K, grad:PARAM), grads, quit\n";

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
    try {
        printPauses(controller.start(), false);
        std::string line;
        for (;;) {
            if (prompt) {
                std::fputs("(gradstep ranks) ", stdout);
                std::fflush(stdout);
            }
            if (!std::getline(std::cin, line))
                break;
            std::istringstream words(line);
            std::string command;
            words >> command;
            if (command.empty())
                continue;
            if (command == "quit" || command == "q")
                break;
            if (command == "step" || command == "s" || command == "continue" || command == "c") {
                const auto pauses = command[0] == 's' ? controller.step() : controller.continueRun();
                printPauses(pauses, false);
                if (allFinished(pauses))
                    break;
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
