// Waiting for a collective without hanging. Note [Collectives that never finish]: a rank that
// stops (killed, crashed, stuck in a loop) leaves the others inside a collective forever. So a
// collective is non-blocking and polled: while it polls, a rank answers "where are you?"
// questions from other ranks on a control communicator; once the deadline passes, it asks every
// rank of the group and names the ones that did not arrive. When mpirun itself ends the job (a
// rank was killed), a waiting rank gets SIGTERM and says which collective it was in.
// SPDX-License-Identifier: MIT
#include "dist/mpi_state.h"

#include "tensor/errors.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>
#include <unistd.h>

namespace gradstep::dist::detail {

namespace {

constexpr int kQuestionTag = 71;
constexpr int kAnswerTag = 72;
constexpr int kAnswerLength = 160;
constexpr double kAnswerWaitSeconds = 2.0;

using Clock = std::chrono::steady_clock;

// What this rank is waiting in, for the SIGTERM handler: written before a wait, read by the
// handler (async-signal-safe: a static buffer and write(2)).
char g_waitText[kAnswerLength + 64];
std::atomic<bool> g_waiting{false};

void onTerminate(int signal)
{
    if (g_waiting.load())
        (void)!::write(2, g_waitText, std::strlen(g_waitText));
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void installTerminateNotice()
{
    static bool installed = false;
    if (installed)
        return;
    installed = true;
    struct sigaction action {};
    action.sa_handler = onTerminate;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, nullptr);
}

std::string describe(const char* opName, const std::string& groupName, std::int64_t sequence)
{
    return std::string(opName) + " #" + std::to_string(sequence) + " of group '" + groupName + "'";
}

// Answers every pending question with what this rank waits in.
void answerQuestions(const std::string& where)
{
    State& s = state();
    for (;;) {
        int pending = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kQuestionTag, s.control, &pending, &status);
        if (!pending)
            return;
        int ignored = 0;
        MPI_Recv(&ignored, 1, MPI_INT, status.MPI_SOURCE, kQuestionTag, s.control, MPI_STATUS_IGNORE);
        char answer[kAnswerLength] = {};
        std::snprintf(answer, sizeof answer, "%s", where.c_str());
        MPI_Send(answer, kAnswerLength, MPI_CHAR, status.MPI_SOURCE, kAnswerTag, s.control);
    }
}

[[noreturn]] void throwTimeout(const GroupEntry& group, const std::string& where, const char* opName, double timeout)
{
    State& s = state();
    const int me = s.launch.rank;
    std::vector<int> others;
    for (int worldRank : group.worldRanks)
        if (worldRank != me)
            others.push_back(worldRank);
    static int question = 0; // outlives the sends: they may still be pending when this throws
    std::vector<MPI_Request> sends(others.size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < others.size(); ++i)
        MPI_Isend(&question, 1, MPI_INT, others[i], kQuestionTag, s.control, &sends[i]);
    std::vector<std::string> answers(others.size());
    std::size_t answered = 0;
    const auto until = Clock::now() + std::chrono::duration<double>(kAnswerWaitSeconds);
    while (answered < others.size() && Clock::now() < until) {
        answerQuestions(where);
        int pending = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kAnswerTag, s.control, &pending, &status);
        if (!pending) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        char answer[kAnswerLength] = {};
        MPI_Recv(answer, kAnswerLength, MPI_CHAR, status.MPI_SOURCE, kAnswerTag, s.control, MPI_STATUS_IGNORE);
        for (std::size_t i = 0; i < others.size(); ++i)
            if (others[i] == status.MPI_SOURCE && answers[i].empty()) {
                answers[i] = answer;
                ++answered;
            }
    }
    std::string missing, elsewhere;
    for (std::size_t i = 0; i < others.size(); ++i) {
        if (answers[i] == where)
            continue;
        missing += (missing.empty() ? "" : ", ") + std::to_string(others[i]);
        if (!answers[i].empty())
            elsewhere += "; rank " + std::to_string(others[i]) + " waits in " + answers[i];
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout);
    throw RuntimeError(std::string("For '") + opName + "', the collective timed out after " + seconds
                       + " s: rank(s) " + (missing.empty() ? std::string("?") : missing) + " did not reach " + where + " (stopped, or busy elsewhere)" + elsewhere
                       + "; set GRADSTEP_COLLECTIVE_TIMEOUT to wait longer");
}

} // namespace

void waitFor(MPI_Request& request, GroupEntry& group, const std::string& groupName, const char* opName)
{
    installTerminateNotice();
    // Ranks may name the world differently (hccl_world_group, nccl_world_group): one name here,
    // so their answers compare equal.
    const std::string where = describe(opName, isWorldGroup(groupName) ? "hccl_world_group" : groupName,
                                       ++group.sequence);
    std::snprintf(g_waitText, sizeof g_waitText, "[rank %d] gradstep: stopped while waiting in %s: another rank ended the job\n",
                  state().launch.rank, where.c_str());
    g_waiting = true;
    struct InWorld { // also when the wait throws
        bool world;
        explicit InWorld(bool w) : world(w) { if (world) state().inWorldCollective = true; }
        ~InWorld() { if (world) state().inWorldCollective = false; }
    } inWorld(isWorldGroup(groupName));
    const double timeout = collectiveTimeout();
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration<double>(timeout);
    for (std::int64_t polls = 0;; ++polls) {
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), opName);
        if (done) {
            if (isWorldGroup(groupName))
                ++state().worldCompleted;
            break;
        }
        answerQuestions(where);
        const auto now = Clock::now();
        if (now > deadline) {
            g_waiting = false;
            throwTimeout(group, where, opName, timeout);
        }
        // Spin for the first millisecond (a step's all-reduce completes within it), then sleep a
        // little so a long wait leaves the cores to the ranks still computing.
        if (now - start < std::chrono::milliseconds(1))
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(polls < 10000 ? 50 : 500));
    }
    g_waiting = false;
}

} // namespace gradstep::dist::detail
