// Serving a rank's session to the controller. Commands: {"cmd": "step" | "over" | "out" |
// "continue" | "where" | "runto" (with "step", "seq") | "sync" (with "collectives") | "pause" |
// "tensor" (with "name") | "grads" | "quit"}. The run commands answer with the rank's pause once
// the session stopped running (rankPauseToJson): step, over and out as the debugger's F11, F10 and
// Shift+F11; runto steps until the rank is at or past node SEQ of training step STEP, sync until it
// completed that many collectives of the world (Note [pausing the ranks together] in
// rank_controller.cpp). pause, while a run command runs, pauses the script after its current node
// and ends the command; it answers nothing itself, and one that arrives after the answer is
// dropped. poke, while a run command runs, answers at once {"running": true, "collectives": N,
// "inCollective": B}: the world's collectives completed and whether one is under way (dropped
// after the answer, as pause). tensor and grads answer at once with their values; quit answers nothing.
// SPDX-License-Identifier: MIT
#include "session/rank_server.h"

#include "session/rank_state.h"
#include "session/rank_wire.h"

#include "dist/communicator.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace gradstep::session {

namespace {

class Server {
public:
    Server(debug::Session& session, int rank, int fd) : m_session(session), m_rank(rank), m_reader(fd) {}

    RankServeEnd run()
    {
        for (;;) {
            RankMessage command;
            const auto got = m_reader.read(std::chrono::milliseconds(1000), command);
            if (got == RankReader::Result::Closed)
                return RankServeEnd::ControllerGone;
            if (got == RankReader::Result::Pending)
                continue;
            const std::string cmd = command.header["cmd"].asString();
            if (cmd == "quit")
                return RankServeEnd::Quit;
            if (cmd == "pause" || cmd == "poke") // after this rank's answer: the run it meant is over
                continue;
            if (const std::optional<RankServeEnd> end = answer(cmd, command.header))
                return *end;
        }
    }

private:
    std::optional<RankServeEnd> answer(const std::string& cmd, const Json& header)
    {
        if (cmd == "tensor")
            return reply(rankTensorMessage(m_rank, *m_session.state(), header["name"].asString()));
        if (cmd == "grads")
            return reply(rankGradientsMessage(m_rank, *m_session.state()));
        m_pauseAsked = false;
        std::optional<RankServeEnd> end;
        if (cmd == "step" || cmd == "over" || cmd == "out" || cmd == "continue")
            end = runCommand(cmd);
        else if (cmd == "runto")
            end = stepUntil([&] {
                return reached(header["step"].asInt(), static_cast<std::uint64_t>(header["seq"].asInt()));
            });
        else if (cmd == "sync")
            end = stepUntil([&] { return dist::worldCollectivesCompleted() >= header["collectives"].asInt(); });
        else if (cmd == "where")
            end = waitForStop();
        else
            return reply({Json(Json::Object{{"rank", m_rank}, {"error", "unknown command '" + cmd + "'"}}), {}});
        return end ? end : reply({rankPauseToJson(m_rank, *m_session.state()), {}});
    }

    std::optional<RankServeEnd> runCommand(const std::string& cmd)
    {
        if (m_session.status() == debug::SessionStatus::Paused) {
            if (cmd == "step")
                m_session.stepInto();
            else if (cmd == "over")
                m_session.stepOver();
            else if (cmd == "out")
                m_session.stepOut();
            else
                m_session.continueRun();
        }
        return waitForStop();
    }

    /// At or past node `seq` of training step `step`.
    bool reached(std::int64_t step, std::uint64_t seq) const
    {
        const auto state = m_session.state();
        const std::uint64_t at = state->liveNode ? state->liveNode->seq : 0;
        return state->step > step || (state->step == step && at >= seq);
    }

    /// Runs node by node until `done` holds, the script stops being paused, or a pause came.
    template <typename Done> std::optional<RankServeEnd> stepUntil(Done done)
    {
        while (m_session.status() == debug::SessionStatus::Paused && !done() && !m_pauseAsked) {
            m_session.stepInto();
            if (const auto end = waitForStop())
                return end;
        }
        return std::nullopt;
    }

    std::optional<RankServeEnd> reply(const RankMessage& message)
    {
        if (!sendRankMessage(m_reader.fd(), message.header, message.block))
            return RankServeEnd::ControllerGone;
        return std::nullopt;
    }

    /// Waits until the script stopped running, honouring quit and pause meanwhile.
    std::optional<RankServeEnd> waitForStop()
    {
        while (!m_session.waitForPause(std::chrono::milliseconds(50))) {
            RankMessage command;
            const auto got = m_reader.read(std::chrono::milliseconds(0), command);
            if (got == RankReader::Result::Closed)
                return RankServeEnd::ControllerGone;
            if (got != RankReader::Result::Message)
                continue;
            const std::string cmd = command.header["cmd"].asString();
            if (cmd == "quit")
                return RankServeEnd::Quit;
            if (cmd == "pause") {
                m_pauseAsked = true;
                m_session.pause();
            } else if (cmd == "poke") { // where a rank that does not pause is: see rank_controller.cpp
                if (const auto end = reply({Json(Json::Object{{"rank", m_rank},
                                                              {"running", true},
                                                              {"collectives", dist::worldCollectivesCompleted()},
                                                              {"inCollective", dist::inWorldCollective()}}),
                                            {}}))
                    return end;
            }
        }
        return std::nullopt;
    }

    debug::Session& m_session;
    int m_rank;
    RankReader m_reader;
    bool m_pauseAsked = false; ///< a pause came during the command being answered
};

} // namespace

RankServeEnd serveRank(debug::Session& session, int rank, int size, const std::string& socketPath, std::string& error)
{
    const int fd = connectToController(socketPath, error);
    if (fd < 0)
        return RankServeEnd::NoController;
    RankServeEnd end = RankServeEnd::ControllerGone;
    if (sendRankMessage(fd, Json(Json::Object{{"hello", rank}, {"size", size}, {"pid", ::getpid()}})))
        end = Server(session, rank, fd).run();
    ::close(fd);
    return end;
}

} // namespace gradstep::session
