// The ranks' controller. Note [the ranks' sockets]: the controller listens on one Unix socket in a
// private directory and gives its path to the ranks in their environment (kRankSocketVariable);
// each rank connects once and says its rank, so every rank has its own connection. Every wait of
// the controller polls in short slices and checks, each time, that no rank's connection closed,
// that mpirun still runs and that stop() was not called; queries and run commands have timeouts
// (Note [pausing the ranks together] in rank_runs.cpp). The ranks watch their
// connection too: when the controller goes away, they end (rank_server.h). mpirun runs in a
// process group of its own with /dev/null as its input (it would forward ours to rank 0); it is
// asked to end by the ranks quitting, then by SIGTERM and SIGKILL to its group, and reaped.
//
// SPDX-License-Identifier: MIT
#include "session/rank_controller.h"

#include "io/read_file.h"

#include <algorithm>
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
#include <utility>

extern char** environ;

namespace gradstep::session {

namespace {

using Clock = RankController::Clock;


std::string describeStatus(int status)
{
    if (WIFEXITED(status))
        return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
    return "status " + std::to_string(status);
}

} // namespace

RankController::RankController(RankControllerOptions options) : m_options(std::move(options))
{
    if (const char* text = std::getenv("GRADSTEP_RANK_TIMEOUT")) {
        char* end = nullptr;
        const double seconds = std::strtod(text, &end);
        if (end != text && seconds > 0 && seconds < 1e6)
            m_options.runTimeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
    }
}

RankController::~RankController()
{
    stop();
}

std::vector<int> RankController::everyRank() const
{
    std::vector<int> all;
    for (int r = 0; r < m_options.ranks; ++r)
        all.push_back(r);
    return all;
}

std::string RankController::rankList(const std::vector<int>& ranks)
{
    std::string text;
    for (int r : ranks)
        text += (text.empty() ? "" : ", ") + std::to_string(r);
    return text;
}

std::string RankController::secondsText(std::chrono::milliseconds ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", static_cast<double>(ms.count()) / 1000.0);
    return text;
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

    std::vector<std::string> args = launchArguments();
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
    std::vector<int> ranks = everyRank();
    m_accepted.assign(ranks.size(), std::nullopt);
    if (m_options.rankZeroHere) { // rank 0 connects once the caller's session runs
        acceptRanks({ranks.begin() + 1, ranks.end()}, true);
        return {};
    }
    acceptRanks(ranks, false);
    return runAll("where", true); // their first pause may be a breakpoint far into the run
}

std::vector<std::string> RankController::launchArguments() const
{
    std::vector<std::string> args = m_options.launcher;
    if (!m_options.rankZeroHere) {
        args.emplace_back("debug");
        args.insert(args.end(), m_options.debugArguments.begin(), m_options.debugArguments.end());
        return args;
    }
    // One relay as MPI rank 0, then the N-1 debugging ranks: mpirun's app contexts.
    const std::string program = args.back();
    args.pop_back();
    const auto n = std::find(args.begin(), args.end(), "-n");
    if (n != args.end() && n + 1 != args.end())
        args.erase(n, n + 2);
    args.insert(args.end(), {"-n", "1", program, "rank-relay", ":", "-n", std::to_string(m_options.ranks - 1), program,
                             "debug"});
    args.insert(args.end(), m_options.debugArguments.begin(), m_options.debugArguments.end());
    return args;
}

int RankController::takeRelay()
{
    std::lock_guard call(m_callMutex);
    // A copy: the controller keeps its own to shut the connection down when the ranks end.
    return m_relay >= 0 && !std::exchange(m_relayTaken, true) ? ::fcntl(m_relay, F_DUPFD_CLOEXEC, 0) : -1;
}

std::vector<RankPause> RankController::joinRankZero()
{
    std::lock_guard call(m_callMutex);
    if (!m_running)
        throw RanksEnded(endReason().empty() ? "the ranks are not running" : endReason());
    acceptRanks({0}, false);
    return runAll("where", true);
}

void RankController::acceptRanks(const std::vector<int>& ranks, bool relay)
{
    const int n = m_options.ranks;
    std::size_t missing = ranks.size() + (relay ? 1 : 0);
    const auto deadline = Clock::now() + m_options.connectTimeout;
    const auto connected = [&] { return std::to_string(ranks.size() + (relay ? 1 : 0) - missing); };
    while (missing > 0) {
        if (m_stopRequested)
            endWith("stopped before the ranks started");
        if (const std::string ended = launcherEnded(); !ended.empty())
            endWith("the ranks ended before all of them connected (mpirun: " + ended + "; " + connected() + " of "
                    + std::to_string(n) + " connected)" + outputTail());
        if (Clock::now() > deadline)
            endWith("only " + connected() + " of " + std::to_string(n) + " ranks connected within "
                    + secondsText(m_options.connectTimeout) + outputTail());
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
        const Json* relayRank = got == RankReader::Result::Message ? hello.header.find("relay") : nullptr;
        const Json* size = got == RankReader::Result::Message ? hello.header.find("size") : nullptr;
        if (size && size->asInt() != n) {
            ::close(fd);
            endWith("a rank runs in a world of " + std::to_string(size->asInt()) + " ranks, not " + std::to_string(n));
        }
        if (relay && relayRank && relayRank->asInt() == 0 && m_relay < 0) {
            m_relay = fd;
            --missing;
            continue;
        }
        const int r = rank ? static_cast<int>(rank->asInt()) : -1;
        const bool expected = std::find(ranks.begin(), ranks.end(), r) != ranks.end();
        if (!rank || !expected || m_accepted[static_cast<std::size_t>(r)]) {
            ::close(fd);
            endWith("a rank connected without saying which one it is, or twice (" + hello.header.dump() + ")");
        }
        m_accepted[static_cast<std::size_t>(r)].emplace(std::move(reader));
        --missing;
    }
    for (const auto& reader : m_accepted)
        if (!reader)
            return; // rank 0 of rankZeroHere comes later
    for (auto& reader : m_accepted) {
        m_fds.push_back(reader->fd());
        m_readers.push_back(std::move(*reader));
    }
    m_accepted.clear();
}

void RankController::send(const Json& command, const std::vector<int>& ranks)
{
    if (!m_running)
        throw RanksEnded(endReason().empty() ? "the ranks are not running" : endReason());
    for (int r : ranks)
        if (!sendRankMessage(m_fds[static_cast<std::size_t>(r)], command))
            endWith("rank " + std::to_string(r) + " ended: its connection closed" + outputTail());
}

void RankController::receive(const std::string& name, Answers& answers, Clock::time_point until,
                             const std::function<bool()>& interrupt)
{
    for (;;) {
        std::size_t pending = 0;
        for (const auto& a : answers)
            pending += a ? 0 : 1;
        if (pending == 0)
            return;
        for (std::size_t r = 0; r < answers.size(); ++r) {
            if (answers[r])
                continue;
            RankMessage message;
            const auto got = m_readers[r].read(std::chrono::milliseconds(pending == 1 ? 100 : 20), message);
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
            if (message.header.find("running")) { // a poke's answer: the rank still runs
                m_pokes.resize(answers.size());
                m_pokes[r] = std::move(message.header);
                continue;
            }
            if (const Json* status = message.header.find("status"); status && status->asString() == "failed") {
                const Json* diagnostic = message.header.find("diagnostic");
                endWith("rank " + std::to_string(r) + " failed; the other ranks were stopped\n[rank " + std::to_string(r)
                        + "] " + (diagnostic ? diagnostic->asString() : std::string("(no diagnostic)")));
            }
            if (const Json* error = message.header.find("error"); error && name != "tensor")
                endWith("rank " + std::to_string(r) + ": " + error->asString());
            answers[r] = std::move(message);
        }
        if (m_stopRequested)
            endWith("stopped");
        if (const std::string ended = launcherEnded(); !ended.empty())
            endWith("mpirun ended (" + ended + ") while '" + name + "' waited for the ranks" + outputTail());
        if (Clock::now() > until || (interrupt && interrupt()))
            return;
    }
}

std::vector<RankMessage> RankController::exchange(const Json& command, const std::vector<int>& ranks,
                                                  std::chrono::milliseconds timeout)
{
    const std::string name = command["cmd"].asString();
    send(command, ranks);
    Answers answers(static_cast<std::size_t>(m_options.ranks));
    for (int r = 0; r < m_options.ranks; ++r)
        if (std::find(ranks.begin(), ranks.end(), r) == ranks.end())
            answers[static_cast<std::size_t>(r)] = RankMessage{}; // not asked
    receive(name, answers, Clock::now() + timeout);
    std::vector<int> missing;
    for (int r : ranks)
        if (!answers[static_cast<std::size_t>(r)])
            missing.push_back(r);
    if (!missing.empty())
        endWith("rank(s) " + rankList(missing) + " did not answer '" + name + "' within " + secondsText(timeout));
    std::vector<RankMessage> out;
    for (int r : ranks)
        out.push_back(std::move(*answers[static_cast<std::size_t>(r)]));
    return out;
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
    std::vector<std::vector<RankGradient>> out;
    for (const RankMessage& m :
         exchange(Json(Json::Object{{"cmd", "grads"}}), everyRank(), m_options.queryTimeout))
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
    for (const auto& reader : m_accepted)
        if (reader)
            ::close(reader->fd());
    m_accepted.clear();
    if (m_relay >= 0) { // ends the relay, and a collective of rank 0 waiting for it in the caller
        ::shutdown(m_relay, SHUT_RDWR);
        ::close(m_relay);
    }
    m_relay = -1;
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
