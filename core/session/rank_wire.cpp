// The ranks' protocol. SPDX-License-Identifier: MIT
#include "session/rank_wire.h"

#include "tensor/errors.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace gradstep::session {

bool sendRankMessage(int fd, Json header, std::string_view block)
{
    header["bytes"] = block.size();
    std::string out = header.dump();
    out += '\n';
    out.append(block);
    std::size_t sent = 0;
    while (sent < out.size()) {
        const ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

bool RankReader::takeMessage(RankMessage& out)
{
    const std::size_t newline = m_buffer.find('\n');
    if (newline == std::string::npos)
        return false;
    Json header = Json::parse(std::string_view(m_buffer).substr(0, newline));
    const Json* bytes = header.isObject() ? header.find("bytes") : nullptr;
    if (!bytes)
        throw ValueError("a rank message has no \"bytes\" count: " + m_buffer.substr(0, std::min<std::size_t>(newline, 200)));
    const auto size = static_cast<std::size_t>(bytes->asInt());
    if (m_buffer.size() - newline - 1 < size)
        return false;
    out.header = std::move(header);
    out.block = m_buffer.substr(newline + 1, size);
    m_buffer.erase(0, newline + 1 + size);
    return true;
}

RankReader::Result RankReader::read(std::chrono::milliseconds wait, RankMessage& out)
{
    if (takeMessage(out))
        return Result::Message;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{m_fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return Result::Closed;
        if (ready == 0)
            return Result::Pending;
        char chunk[65536];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return Result::Closed;
        m_buffer.append(chunk, static_cast<std::size_t>(n));
        if (takeMessage(out))
            return Result::Message;
    }
}

std::string doublesToBlock(const std::vector<double>& values)
{
    std::string block(values.size() * sizeof(double), '\0');
    if (!values.empty())
        std::memcpy(block.data(), values.data(), block.size());
    return block;
}

std::vector<double> doublesFromBlock(std::string_view block, std::size_t at, std::size_t count)
{
    if (at > block.size() || (block.size() - at) / sizeof(double) < count)
        throw ValueError("a rank message's block ends inside its values (" + std::to_string(block.size())
                         + " bytes, " + std::to_string(count) + " doubles wanted at byte " + std::to_string(at) + ")");
    std::vector<double> values(count);
    if (count)
        std::memcpy(values.data(), block.data() + at, count * sizeof(double));
    return values;
}

Json rankWireNumber(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    return value;
}

double rankWireNumberValue(const Json& value)
{
    if (value.isNumber())
        return value.asNumber();
    if (value.isString() && value.asString() == "inf")
        return std::numeric_limits<double>::infinity();
    if (value.isString() && value.asString() == "-inf")
        return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
}

int connectToController(const std::string& path, std::string& error)
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

} // namespace gradstep::session
