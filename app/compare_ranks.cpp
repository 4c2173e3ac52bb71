// Side A of compare --what ranks on its ranks. SPDX-License-Identifier: MIT
#include "app/compare_ranks.h"

#include "app/rank_launcher.h"
#include "io/json.h"
#include "io/read_file.h"
#include "io/spawn_with_output.h"
#include "io/temporary_directory.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>


namespace gradstep::app {

namespace {

/// What went wrong, as the ranks said it: their error lines ("[rank 1] error: ..."), else the
/// last lines (mpirun's own summary).
std::string failureLines(const std::string& output)
{
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < output.size();) {
        const std::size_t end = std::min(output.find('\n', start), output.size());
        lines.push_back(output.substr(start, end - start));
        start = end + 1;
    }
    std::string errors;
    for (const std::string& line : lines)
        if (line.find("] error: ") != std::string::npos || line.find(": error: ") != std::string::npos)
            errors += line + "\n";
    if (!errors.empty())
        return errors;
    std::string tail;
    for (std::size_t i = lines.size() > 6 ? lines.size() - 6 : 0; i < lines.size(); ++i)
        tail += lines[i] + "\n";
    return tail;
}

std::string howItEnded(int status)
{
    if (WIFSIGNALED(status))
        return "mpirun was killed by signal " + std::to_string(WTERMSIG(status));
    return "mpirun ended with status " + std::to_string(WEXITSTATUS(status));
}

} // namespace

std::string sideSettingsArgument(const session::CompareOptions& options)
{
    const run::RunOverrides& o = options.base;
    return std::to_string(static_cast<int>(o.hasAux)) + "," + std::to_string(static_cast<int>(o.gradApi)) + ","
           + std::to_string(static_cast<int>(o.mode)) + "," + std::to_string(static_cast<int>(o.amp)) + ","
           + options.baseApiProfile;
}

bool parseSideSettings(const std::string& text, session::CompareOptions& options)
{
    int hasAux = 0, gradApi = 0, mode = 0, amp = 0, used = 0;
    if (std::sscanf(text.c_str(), "%d,%d,%d,%d,%n", &hasAux, &gradApi, &mode, &amp, &used) != 4 || used == 0)
        return false;
    for (int value : {hasAux, gradApi, mode, amp})
        if (value < 0 || value > 2)
            return false;
    options.base.hasAux = static_cast<run::HasAuxOverride>(hasAux);
    options.base.gradApi = static_cast<run::GradApiOverride>(gradApi);
    options.base.mode = static_cast<run::ModeOverride>(mode);
    options.base.amp = static_cast<run::AmpOverride>(amp);
    options.baseApiProfile = text.substr(static_cast<std::size_t>(used));
    return options.baseApiProfile == "2.x" || options.baseApiProfile == "1.10";
}

session::StepFigures runSideOnRanks(const session::CompareSide& side, const session::CompareOptions& options,
                                    bool& interrupted)
{
    session::StepFigures figures;
    figures.label = side.label;
    std::vector<std::string> args = mpirunCommand(side.ranks);
    if (args.empty()) {
        figures.error = "the ranks need Open MPI's mpirun, which is not on PATH (Debian: apt-get install openmpi-bin)";
        return figures;
    }
    const TemporaryDirectory folder("gradstep-ranks");
    const std::filesystem::path report = folder.path() / "a.json", output = folder.path() / "ranks.out";
    char timeout[32];
    std::snprintf(timeout, sizeof timeout, "%.3f", static_cast<double>(options.timeout.count()) / 1000.0);
    args.insert(args.end(), {"compare", side.script.string(), "--what", "ranks", "--ranks",
                             std::to_string(side.ranks), "--run-side", "a", "--side-report", report.string(),
                             "--side-settings", sideSettingsArgument(options), "--seed", std::to_string(options.seed),
                             "--steps", std::to_string(options.steps)});
    if (options.timeout.count() > 0)
        args.insert(args.end(), {"--timeout", timeout});
    if (!options.output)
        args.emplace_back("--quiet");
    args.emplace_back("--");
    args.insert(args.end(), options.args.begin(), options.args.end());
    pid_t pid = -1;
    const int error = spawnWithOutput(std::move(args), output, pid);
    if (error != 0) {
        figures.error = std::string("cannot start mpirun: ") + std::strerror(error);
        return figures;
    }
    int status = 0;
    bool killed = false;
    while (::waitpid(pid, &status, WNOHANG) != pid) {
        if (!killed && options.cancelled && options.cancelled()) {
            ::kill(pid, SIGTERM); // mpirun passes it on to the ranks
            killed = interrupted = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const std::string printed = readWholeFile(output);
    if (options.output && !printed.empty())
        options.output(run::OutputStream::Stdout, printed);
    if (interrupted) {
        figures.error = "interrupted";
        return figures;
    }
    try {
        if (std::filesystem::exists(report)) {
            figures = session::sideFromWire(readWholeFile(report));
            figures.label = side.label;
            return figures;
        }
    } catch (const std::exception& e) {
        figures.error = std::string("rank 0 wrote an unreadable result: ") + e.what();
        return figures;
    }
    figures.error = "the " + std::to_string(side.ranks) + " ranks gave no step (" + howItEnded(status)
                    + "):\n" + failureLines(printed);
    return figures;
}

} // namespace gradstep::app
