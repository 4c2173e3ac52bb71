// A world whose MPI rank lives in another process: the window's own session is rank 0 of a
// data-parallel run whose MPI rank 0 is a relay under mpirun (Note [rank 0 in the window] in
// session/rank_relay.cpp). While one is set, initialize() joins it instead of starting MPI, and
// every collective of a group of more than one rank, and every group change, is carried out by it.
// Plain C++, no MPI header. SPDX-License-Identifier: MIT
#pragma once

#include "dist/communicator.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gradstep::dist {

enum class CollectiveKind : std::uint8_t { AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll };

class RemoteWorld {
public:
    virtual ~RemoteWorld() = default;
    /// mindspore.communication.init(): the remote rank starts MPI; its rank, size and local ranks.
    virtual Launch join() = 0;
    /// One collective as communicator.h describes it; `in` holds inBytes, `out` gets outBytes.
    /// RuntimeError with the remote rank's own message when it fails.
    virtual void collective(CollectiveKind kind, const void* in, std::size_t inBytes, void* out, std::size_t outBytes,
                            std::int64_t count, ElementType type, ReduceOp op, int root, const std::string& group,
                            const char* opName) = 0;
    virtual std::vector<std::vector<double>> gatherToRoot(const std::vector<double>& values) = 0;
    virtual void createGroup(const std::string& group, const std::vector<int>& worldRanks) = 0;
    virtual void destroyGroup(const std::string& group) = 0;
    /// Makes a call under way fail at once and every later one too (the run is being ended);
    /// safe from any thread.
    virtual void interrupt() = 0;
};

/// Sets (or, with null, removes) the remote world. Either way this process's world is reset: the
/// next initialize() joins `world`, or without one is a world of its own (MPI never runs in a
/// process that had a remote world). A call waiting in the old world is interrupted first.
void setRemoteWorld(std::shared_ptr<RemoteWorld> world);

} // namespace gradstep::dist
