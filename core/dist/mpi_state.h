// The MPI state behind communicator.h, shared by the world (mpi_world.cpp) and the collectives
// (mpi_collectives.cpp, mpi_wait.cpp). Internal to core/dist. SPDX-License-Identifier: MIT
#pragma once

#include "dist/communicator.h"
#include "dist/remote_world.h"

#include <mpi.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gradstep::dist::detail {

struct GroupEntry {
    MPI_Comm comm = MPI_COMM_NULL; ///< MPI_COMM_NULL in a world of one without MPI
    std::vector<int> worldRanks;   ///< group rank i is world rank worldRanks[i]
    int rank = 0;                  ///< this process's rank in the group
    std::int64_t sequence = 0;     ///< collectives started on the group so far
};

struct State {
    /// Serialises MPI calls: MPI runs with MPI_THREAD_SERIALIZED (the script's worker thread
    /// and, at the end, the main thread; a compiled graph never runs two collectives at once).
    std::recursive_mutex mutex;
    bool initialized = false;
    bool mpi = false;
    Launch launch;
    /// A duplicate of the world for the "who is there" questions of a timed-out collective
    /// (mpi_wait.cpp), so they never match a collective's own messages.
    MPI_Comm control = MPI_COMM_NULL;
    std::map<std::string, GroupEntry> groups;
    double timeoutSeconds = -1.0; ///< < 0: not read from the environment yet
    /// Collectives of the world group completed so far; read without the mutex (which a
    /// collective holds while it waits) by a rank's controller thread.
    std::atomic<std::int64_t> worldCompleted{0};
    /// A collective of the world group is under way (started, not completed).
    std::atomic<bool> inWorldCollective{false};
    /// refuseCollectives() was called: the rank is ending.
    std::atomic<bool> refusing{false};
    /// Set: this process's rank is carried out by another process (remote_world.h).
    std::shared_ptr<RemoteWorld> remote;
};

State& state();
/// The group's entry (world aliases included); RuntimeError when it does not exist or
/// initialize() has not run. Call with the mutex held.
GroupEntry& group(const std::string& name, const char* function);
/// RuntimeError once refuseCollectives() was called (before a collective starts).
void refuseIfEnding(const char* opName);
/// Throws RuntimeError with MPI's own text unless code is MPI_SUCCESS.
void check(int code, const char* what);
MPI_Datatype mpiType(ElementType type);
std::size_t elementBytes(ElementType type);
MPI_Op mpiOp(ReduceOp op, ElementType type);

/// Waits for `request` while answering other ranks' questions; after the timeout asks the
/// group's ranks where they are and throws RuntimeError naming the collective and the ranks
/// that did not arrive. Call with the mutex held.
void waitFor(MPI_Request& request, GroupEntry& group, const std::string& groupName, const char* opName);

} // namespace gradstep::dist::detail
