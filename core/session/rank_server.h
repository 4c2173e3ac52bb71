// One rank of `debug --ranks` under a controller (rank_controller.h): the rank's debug::Session
// answers the controller's commands over its socket (rank_wire.h) until the controller says quit
// or goes away. SPDX-License-Identifier: MIT
#pragma once

#include "session/session.h"

#include <string>

namespace gradstep::session {

enum class RankServeEnd {
    Quit,           ///< the controller said quit
    ControllerGone, ///< its socket closed: the controller ended without saying so
    NoController,   ///< the socket could not be reached
};

/// Connects to `socketPath`, says which rank this is, and serves `session` (loaded already):
/// step, continue, where, tensor and grads, until quit. While the script runs, the socket is
/// watched, so a quit is honoured and a vanished controller noticed at once.
/// `error` says why for NoController.
RankServeEnd serveRank(debug::Session& session, int rank, int size, const std::string& socketPath,
                       std::string& error);

} // namespace gradstep::session
