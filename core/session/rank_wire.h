// The protocol between the controller of `debug --ranks` (the CLI's interactive mode, the window's
// Ranks panel) and the ranks it steps together: one Unix stream socket per rank. Each message is
// one JSON object on one line whose "bytes" member says how many raw bytes follow it: the values
// of a tensor or of gradients as native doubles, the wire form compare's side processes use (Note
// [the wire's gradient block] in compare_wire.cpp). No Python or Qt header.
// SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep::session {

/// The environment variable through which the controller gives each rank its socket's path.
inline constexpr const char* kRankSocketVariable = "GRADSTEP_RANK_SOCKET";

struct RankMessage {
    Json header;       ///< an object
    std::string block; ///< the "bytes" bytes after it
};

/// Writes `header` (its "bytes" set to block.size()) and `block`; false when the peer is gone.
/// Never raises SIGPIPE.
bool sendRankMessage(int fd, Json header, std::string_view block = {});

/// Reads the messages of one socket, keeping what arrived of the next one.
class RankReader {
public:
    enum class Result { Message, Pending, Closed };

    explicit RankReader(int fd) : m_fd(fd) {}
    /// Waits at most `wait` for data; Message when a whole message is in `out`, Pending when not
    /// yet, Closed when the peer closed its end (or the socket failed). ValueError for a header
    /// that is not a JSON object with a "bytes" count.
    Result read(std::chrono::milliseconds wait, RankMessage& out);
    int fd() const { return m_fd; }

private:
    bool takeMessage(RankMessage& out);

    int m_fd;
    std::string m_buffer;
};

/// Doubles as the block's bytes, and back (`count` of them from `at` bytes in; ValueError when
/// the block is shorter).
std::string doublesToBlock(const std::vector<double>& values);
std::vector<double> doublesFromBlock(std::string_view block, std::size_t at, std::size_t count);

/// A number that may be NaN or infinite, as compare's wire form writes it ("nan", "inf", "-inf").
Json rankWireNumber(double value);
double rankWireNumberValue(const Json& value);

/// A connected Unix-socket descriptor to the controller at `path` (a rank's server and the window's
/// relay both dial it), or -1 with `error` saying why.
int connectToController(const std::string& path, std::string& error);

} // namespace gradstep::session
