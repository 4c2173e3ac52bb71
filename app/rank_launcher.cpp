// Starting the ranks through mpirun. Note [Ranks under mpirun]: mpirun starts N copies of
// `gradstep run SCRIPT`; each learns its rank from the environment mpirun sets (core/dist reads
// it), prefixes its output with "[rank k] " and starts MPI when the script calls init(). A rank
// that fails aborts the job (MPI_Abort), so mpirun stops the others; a rank that is killed makes
// mpirun stop the others, which say which collective they were waiting in (core/dist/mpi_wait.cpp).
// SPDX-License-Identifier: MIT
#include "app/rank_launcher.h"

#include "app/cli_common.h"
#include "dist/communicator.h"
#include "session/rank_relay.h"
#include "session/rank_wire.h"

#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace gradstep::app {

namespace {

/// mpirun's path from PATH, or empty.
std::string findOnPath(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::string directories = path ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= directories.size()) {
        const std::size_t end = std::min(directories.find(':', start), directories.size());
        const std::string directory = directories.substr(start, end - start);
        const std::string candidate = (directory.empty() ? std::string(".") : directory) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return {};
}

std::string ownExecutable()
{
    std::error_code error;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string("gradstep") : path.string();
}

} // namespace

std::vector<std::string> mpirunCommand(int ranks)
{
    const std::string mpirun = findOnPath("mpirun");
    if (mpirun.empty())
        return {};
    std::vector<std::string> arguments{mpirun, "-n", std::to_string(ranks)};
    if (::geteuid() == 0)
        arguments.push_back("--allow-run-as-root");
    // More ranks than cores is the point on a small machine; pinning them would make them queue.
    for (const char* flag : {"--oversubscribe", "--bind-to", "none"})
        arguments.emplace_back(flag);
    arguments.push_back(ownExecutable());
    return arguments;
}

std::vector<std::string> rankServeLauncher(int ranks)
{
    std::vector<std::string> arguments = mpirunCommand(ranks);
    if (!arguments.empty())
        arguments.insert(arguments.begin() + 1, {"-x", session::kRankSocketVariable});
    return arguments;
}

int relayRank()
{
    const dist::Launch launch = dist::launchEnvironment();
    const char* socket = std::getenv(session::kRankSocketVariable);
    if (!launch.launched || !socket || !*socket) {
        writeErr("gradstep rank-relay: only the window's Ranks start this, under mpirun\n");
        return 1;
    }
    std::string error;
    const int status = session::serveRelay(socket, launch.rank, launch.size, error);
    if (status != 0)
        writeErr("[gradstep] rank-relay: " + error + "\n");
    // The window ended its ranks (or its run): end MPI with the debugging ranks, which quit too.
    dist::finalize();
    return status;
}

int launchRanks(int ranks, const std::vector<std::string>& runArguments, const std::string& command)
{
    std::vector<std::string> arguments = mpirunCommand(ranks);
    if (arguments.empty()) {
        writeErr("gradstep " + command + ": --ranks needs Open MPI's mpirun, which is not on PATH; install it (Debian: "
                 "apt-get install openmpi-bin) or start the ranks yourself with your MPI's launcher\n");
        return 127;
    }
    arguments.push_back(command);
    arguments.insert(arguments.end(), runArguments.begin(), runArguments.end());
    std::vector<char*> argv;
    for (std::string& a : arguments)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t child = ::fork();
    if (child < 0) {
        writeErr("gradstep " + command + ": cannot start mpirun\n");
        return 1;
    }
    if (child == 0) {
        ::execv(argv[0], argv.data());
        std::_Exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    writeErr("gradstep " + command + ": not all " + std::to_string(ranks) + " ranks ended with status 0 (mpirun "
             + (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                  : "signal " + std::to_string(WTERMSIG(status)))
             + ")\n");
    return 1;
}

} // namespace gradstep::app
