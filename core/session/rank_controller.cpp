// The ranks' controller. Note [the ranks' sockets]: the controller listens on one Unix socket in a
// private directory and gives its path to the ranks in their environment (kRankSocketVariable);
// each rank connects once and says its rank, so every rank has its own connection. Every wait of
// the controller polls in short slices and checks, each time, that no rank's connection closed,
// that mpirun still runs and that stop() was not called; queries also have a timeout. A run
// command (step, continue) has none: a rank blocked in a collective whose peer is gone fails by
// the collective's own timeout (GRADSTEP_COLLECTIVE_TIMEOUT) and says so. The ranks watch their
// connection too: when the controller goes away, they end (rank_server.h). mpirun runs in a
// process group of its own with /dev/null as its input (it would forward ours to rank 0); it is
// asked to end by the ranks quitting, then by SIGTERM and SIGKILL to its group, and reaped.
// SPDX-License-Identifier: MIT
#include "session/rank_controller.h"

#include "io/read_file.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace gradstep::session {

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds(std::chrono::milliseconds ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", static_cast<double>(ms.count()) / 1000.0);
    return text;
}

std::string describeStatus(int status)
{
    if (WIFEXITED(status))
        return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
    return "status " + std::to_string(status);
}

} // namespace

RankController::RankController(RankControllerOptions options) : m_options(std::move(options)) {}

RankController::~RankController()
{
    stop();
}

std::string RankController::endReason() const
{
    std::lock_guard lock(m_reasonMutex);
    return m_endReason;
}

std::string RankController::launcherEnded()
{
    if (m_pid <= 0)
        return "it is not running";
    int status = 0;
    if (::waitpid(m_pid, &status, WNOHANG) != m_pid)
        return {};
    m_pid = 0;
    m_launcherPid = 0;
    return describeStatus(status);
}

std::string RankController::outputTail() const
{
    if (m_output.empty())
        return {};
    std::string text = readWholeFile(m_output);
    if (text.size() > 4000)
        text = "..." + text.substr(text.size() - 4000);
    return text.empty() ? std::string() : "\nthe ranks' output ends with:\n" + text;
}

void RankController::endWith(const std::string& reason)
{
    {
        std::lock_guard lock(m_reasonMutex);
        if (m_endReason.empty())
            m_endReason = reason;
    }
    teardown(false);
    throw RanksEnded(endReason());
}

std::vector<RankPause> RankController::start()
{
    std::lock_guard call(m_callMutex);
    if (m_running || m_pid)
        throw RanksEnded("the ranks were started already");
    if (m_options.launcher.empty())
        throw RanksEnded("no launcher to start the ranks with (Open MPI's mpirun is needed: Debian's openmpi-bin)");
    char pattern[] = "/tmp/gradstep-ranks-XXXXXX";
    if (!::mkdtemp(pattern))
        throw RanksEnded(std::string("cannot create a directory for the ranks' sockets: ") + std::strerror(errno));
    m_directory = pattern;
    m_socket = m_directory / "control";
    m_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, m_socket.c_str(), sizeof address.sun_path - 1);
    if (m_listener < 0 || ::bind(m_listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0
        || ::listen(m_listener, m_options.ranks) != 0) {
        const std::string why = std::strerror(errno);
        teardown(false);
        throw RanksEnded("cannot listen for the ranks at " + m_socket.string() + ": " + why);
    }

    std::vector<std::string> args = m_options.launcher;
    args.emplace_back("debug");
    args.insert(args.end(), m_options.debugArguments.begin(), m_options.debugArguments.end());
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string variable = std::string(kRankSocketVariable) + "=";
    std::vector<std::string> environment{variable + m_socket.string()};
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, variable.c_str(), variable.size()) != 0)
            environment.emplace_back(*e);
    std::vector<char*> envp;
    for (std::string& e : environment)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (m_options.captureOutput)
        m_output = m_directory / "ranks.log";
    if (m_output.empty())
        posix_spawn_file_actions_adddup2(&actions, 2, 1);
    else {
        posix_spawn_file_actions_addopen(&actions, 1, m_output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = 0;
    const int error = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) {
        teardown(false);
        throw RanksEnded("cannot start " + args.front() + ": " + std::strerror(error));
    }
    m_pid = pid;
    m_launcherPid = pid;
    m_running = true;
    acceptRanks();
    std::vector<int> all;
    for (int r = 0; r < m_options.ranks; ++r)
        all.push_back(r);
    std::vector<RankPause> pauses;
    for (const RankMessage& m : exchange(Json(Json::Object{{"cmd", "where"}}), all, std::chrono::milliseconds(0)))
        pauses.push_back(rankPauseFromJson(m.header));
    return pauses;
}

void RankController::acceptRanks()
{
    const int n = m_options.ranks;
    std::vector<std::optional<RankReader>> byRank(static_cast<std::size_t>(n));
    int connected = 0;
    const auto deadline = Clock::now() + m_options.connectTimeout;
    while (connected < n) {
        if (m_stopRequested)
            endWith("stopped before the ranks started");
        if (const std::string ended = launcherEnded(); !ended.empty())
            endWith("the ranks ended before all of them connected (mpirun: " + ended + "; " + std::to_string(connected)
                    + " of " + std::to_string(n) + " connected)" + outputTail());
        if (Clock::now() > deadline)
            endWith("only " + std::to_string(connected) + " of " + std::to_string(n) + " ranks connected within "
                    + seconds(m_options.connectTimeout) + outputTail());
        pollfd p{m_listener, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        RankReader reader(fd);
        RankMessage hello;
        const auto got = reader.read(std::chrono::milliseconds(10'000), hello);
        const Json* rank = got == RankReader::Result::Message ? hello.header.find("hello") : nullptr;
        if (!rank || rank->asInt() < 0 || rank->asInt() >= n || byRank[static_cast<std::size_t>(rank->asInt())]) {
            ::close(fd);
            endWith("a rank connected without saying which one it is, or twice (" + hello.header.dump() + ")");
        }
        if (hello.header["size"].asInt() != n) {
            ::close(fd);
            endWith("a rank runs in a world of " + std::to_string(hello.header["size"].asInt()) + " ranks, not "
                    + std::to_string(n));
        }
        byRank[static_cast<std::size_t>(rank->asInt())].emplace(std::move(reader));
        ++connected;
    }
    for (auto& reader : byRank) {
        m_fds.push_back(reader->fd());
        m_readers.push_back(std::move(*reader));
    }
}

std::vector<RankMessage> RankController::exchange(const Json& command, const std::vector<int>& ranks,
                                                  std::chrono::milliseconds timeout)
{
    if (!m_running)
        throw RanksEnded(endReason().empty() ? "the ranks are not running" : endReason());
    const std::string name = command["cmd"].asString();
    for (int r : ranks)
        if (!sendRankMessage(m_fds[static_cast<std::size_t>(r)], command))
            endWith("rank " + std::to_string(r) + " ended: its connection closed" + outputTail());
    std::vector<std::optional<RankMessage>> answers(ranks.size());
    std::size_t pending = ranks.size();
    const auto deadline = Clock::now() + timeout;
    while (pending > 0) {
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (answers[i])
                continue;
            const int r = ranks[i];
            RankMessage message;
            const auto got = m_readers[static_cast<std::size_t>(r)].read(std::chrono::milliseconds(pending == 1 ? 100 : 20), message);
            if (got == RankReader::Result::Closed) {
                // Give mpirun a moment to notice, so the reason can say how the rank ended.
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                const std::string ended = launcherEnded();
                endWith("rank " + std::to_string(r) + " ended without answering '" + name + "' (its process is gone"
                        + (ended.empty() ? std::string() : "; mpirun: " + ended) + "); the other ranks were stopped"
                        + outputTail());
            }
            if (got != RankReader::Result::Message)
                continue;
            if (const Json* status = message.header.find("status"); status && status->asString() == "failed") {
                const Json* diagnostic = message.header.find("diagnostic");
                endWith("rank " + std::to_string(r) + " failed; the other ranks were stopped\n[rank " + std::to_string(r)
                        + "] " + (diagnostic ? diagnostic->asString() : std::string("(no diagnostic)")));
            }
            if (const Json* error = message.header.find("error"); error && name != "tensor")
                endWith("rank " + std::to_string(r) + ": " + error->asString());
            answers[i] = std::move(message);
            --pending;
        }
        if (m_stopRequested)
            endWith("stopped");
        if (const std::string ended = launcherEnded(); !ended.empty())
            endWith("mpirun ended (" + ended + ") while '" + name + "' waited for the ranks" + outputTail());
        if (timeout.count() > 0 && pending > 0 && Clock::now() > deadline) {
            std::string missing;
            for (std::size_t i = 0; i < ranks.size(); ++i)
                if (!answers[i])
                    missing += (missing.empty() ? "" : ", ") + std::to_string(ranks[i]);
            endWith("rank(s) " + missing + " did not answer '" + name + "' within " + seconds(timeout));
        }
    }
    std::vector<RankMessage> out;
    for (auto& a : answers)
        out.push_back(std::move(*a));
    return out;
}

std::vector<RankPause> RankController::broadcastRun(const std::string& command)
{
    std::lock_guard call(m_callMutex);
    std::vector<int> all;
    for (int r = 0; r < m_options.ranks; ++r)
        all.push_back(r);
    const bool query = command == "where";
    std::vector<RankPause> pauses;
    for (const RankMessage& m : exchange(Json(Json::Object{{"cmd", command}}), all,
                                         query ? m_options.queryTimeout : std::chrono::milliseconds(0)))
        pauses.push_back(rankPauseFromJson(m.header));
    return pauses;
}

std::vector<RankPause> RankController::step()
{
    return broadcastRun("step");
}

std::vector<RankPause> RankController::continueRun()
{
    return broadcastRun("continue");
}

std::vector<RankPause> RankController::where()
{
    return broadcastRun("where");
}

RankTensor RankController::tensor(int rank, const std::string& name)
{
    std::lock_guard call(m_callMutex);
    if (rank < 0 || rank >= m_options.ranks)
        throw RanksEnded("there is no rank " + std::to_string(rank) + " of " + std::to_string(m_options.ranks));
    const auto answers = exchange(Json(Json::Object{{"cmd", "tensor"}, {"name", name}}), {rank}, m_options.queryTimeout);
    return rankTensorFromMessage(answers.front());
}

std::vector<std::vector<RankGradient>> RankController::gradients()
{
    std::lock_guard call(m_callMutex);
    std::vector<int> all;
    for (int r = 0; r < m_options.ranks; ++r)
        all.push_back(r);
    std::vector<std::vector<RankGradient>> out;
    for (const RankMessage& m : exchange(Json(Json::Object{{"cmd", "grads"}}), all, m_options.queryTimeout))
        out.push_back(rankGradientsFromMessage(m));
    return out;
}

void RankController::stop()
{
    m_stopRequested = true;
    std::lock_guard call(m_callMutex);
    {
        std::lock_guard lock(m_reasonMutex);
        if (m_endReason.empty())
            m_endReason = "stopped";
    }
    teardown(true);
}

void RankController::teardown(bool clean)
{
    if (clean)
        for (int fd : m_fds)
            sendRankMessage(fd, Json(Json::Object{{"cmd", "quit"}}));
    // Closing the connections also ends a rank that missed the quit (rank_server.h).
    for (int fd : m_fds)
        ::close(fd);
    m_fds.clear();
    m_readers.clear();
    if (m_listener >= 0)
        ::close(m_listener);
    m_listener = -1;
    const auto waitFor = [this](std::chrono::milliseconds limit) {
        const auto until = Clock::now() + limit;
        while (m_pid > 0 && Clock::now() < until) {
            if (!launcherEnded().empty())
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    };
    // Ranks told to quit end MPI normally; the others see their connection close and end at once,
    // and mpirun then ends the job itself (a SIGTERM while it aborts a job can crash it).
    waitFor(std::chrono::milliseconds(clean ? 5000 : 3000));
    if (m_pid > 0) { // mpirun passes SIGTERM on to the ranks and ends
        ::kill(m_pid, SIGTERM);
        waitFor(std::chrono::milliseconds(3000));
    }
    if (m_pid > 0) {
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = 0;
        m_launcherPid = 0;
    }
    m_running = false;
    if (!m_directory.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(m_directory, ignored);
        m_directory.clear();
        m_output.clear();
    }
}

} // namespace gradstep::session
