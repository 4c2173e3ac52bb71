// Rank 0 of a data-parallel run in the window's own process (Note [rank 0 in the window] in
// rank_relay.cpp): the relay that is MPI rank 0 under mpirun, and the remote world through which
// the window's session uses it. No Python or Qt header. SPDX-License-Identifier: MIT
#pragma once

#include "dist/remote_world.h"

#include <memory>
#include <string>

namespace gradstep::session {

/// The relay's side: connects to the ranks' controller at `socketPath` (saying {"relay": rank,
/// "size": size}) and carries out the remote world's calls with this process's MPI rank until the
/// connection closes. Returns 0 then, 1 when the controller cannot be reached (said in `error`).
int serveRelay(const std::string& socketPath, int rank, int size, std::string& error);

/// The window's side: a remote world over the relay's connection `fd` (taken over: closed by it).
std::shared_ptr<dist::RemoteWorld> relayWorld(int fd);

} // namespace gradstep::session
