// Serving a rank's session to the controller. Commands: {"cmd": "step" | "continue" | "where" |
// "tensor" (with "name") | "grads" | "quit"}. step, continue and where answer with the rank's
// pause once the session stopped running (rankPauseToJson); tensor and grads answer at once with
// their values; quit answers nothing. SPDX-License-Identifier: MIT
#include "session/rank_server.h"

#include "session/rank_state.h"
#include "session/rank_wire.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace gradstep::session {

namespace {

int connectTo(const std::string& path, std::string& error)
{
    sockaddr_un address{};
    if (path.size() >= sizeof address.sun_path) {
        error = "the controller's socket path is too long: " + path;
        return -1;
    }
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        error = "cannot reach the controller at " + path + ": " + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

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
            std::optional<RankServeEnd> end;
            if (cmd == "step" || cmd == "continue" || cmd == "where") {
                if (cmd != "where" && m_session.status() == debug::SessionStatus::Paused) {
                    if (cmd == "step")
                        m_session.stepInto();
                    else
                        m_session.continueRun();
                }
                end = waitForStop();
                if (!end)
                    end = reply({rankPauseToJson(m_rank, *m_session.state()), {}});
            } else if (cmd == "tensor") {
                end = reply(rankTensorMessage(m_rank, *m_session.state(), command.header["name"].asString()));
            } else if (cmd == "grads") {
                end = reply(rankGradientsMessage(m_rank, *m_session.state()));
            } else {
                end = reply({Json(Json::Object{{"rank", m_rank}, {"error", "unknown command '" + cmd + "'"}}), {}});
            }
            if (end)
                return *end;
        }
    }

private:
    std::optional<RankServeEnd> reply(const RankMessage& message)
    {
        if (!sendRankMessage(m_reader.fd(), message.header, message.block))
            return RankServeEnd::ControllerGone;
        return std::nullopt;
    }

    /// Waits until the script stopped running, honouring quit meanwhile.
    std::optional<RankServeEnd> waitForStop()
    {
        while (!m_session.waitForPause(std::chrono::milliseconds(50))) {
            RankMessage command;
            const auto got = m_reader.read(std::chrono::milliseconds(0), command);
            if (got == RankReader::Result::Closed)
                return RankServeEnd::ControllerGone;
            if (got != RankReader::Result::Message)
                continue;
            if (command.header["cmd"].asString() == "quit")
                return RankServeEnd::Quit;
        }
        return std::nullopt;
    }

    debug::Session& m_session;
    int m_rank;
    RankReader m_reader;
};

} // namespace

RankServeEnd serveRank(debug::Session& session, int rank, int size, const std::string& socketPath, std::string& error)
{
    const int fd = connectTo(socketPath, error);
    if (fd < 0)
        return RankServeEnd::NoController;
    RankServeEnd end = RankServeEnd::ControllerGone;
    if (sendRankMessage(fd, Json(Json::Object{{"hello", rank}, {"size", size}, {"pid", ::getpid()}})))
        end = Server(session, rank, fd).run();
    ::close(fd);
    return end;
}

} // namespace gradstep::session
