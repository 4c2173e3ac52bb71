// The ranks of a data-parallel run and the collectives between them, over MPI (one rank = one
// process). MPI starts lazily, on initialize() (mindspore.communication.init); a process not
// started by a launcher (mpirun) is a world of one whose collectives copy their input.
// Plain C++: no MPI header leaks out of core/dist. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep::dist {

enum class ReduceOp : std::uint8_t { Sum, Max, Min, Prod };
/// The element types the collectives move (half precision is widened by the ops first).
enum class ElementType : std::uint8_t { Float32, Float64, Int8, UInt8, Int16, Int32, Int64, Bool };

/// What the launcher told this process through its environment (OMPI_COMM_WORLD_*), read
/// without starting MPI.
struct Launch {
    bool launched = false; ///< started by mpirun (or another PMIx launcher)
    int rank = 0;
    int size = 1;
    int localRank = 0;
    int localSize = 1;
};
Launch launchEnvironment();

/// Starts MPI when a launcher started this process (idempotent); else the world has one rank.
void initialize();
/// True once initialize() ran (with or without MPI).
bool isInitialized();
/// True when MPI runs (a launched world, initialized).
bool usesMpi();
/// mindspore.communication.release(): the groups are destroyed and the rank queries fail until
/// initialize() again; MPI itself stays up until finalize() (it cannot start twice in a process).
void release();
/// From now on every collective fails at once (RuntimeError) instead of starting: a rank told to
/// end while its script is paused lets the script unwind without entering a collective that
/// the other ranks, ending too, would never join. Safe from any thread.
void refuseCollectives();
/// Ends MPI after a normal end of the run (every rank must call it); nothing when it never ran.
void finalize();
/// Ends every rank of the job at once (a rank's script failed): MPI_Abort, or exit without MPI.
[[noreturn]] void abortAll(int status);

/// The world's group names: MindSpore's HCCL/NCCL/MCCL world groups are all the MPI world.
bool isWorldGroup(const std::string& group);
/// Rank and size of this process in `group`; RuntimeError for a group that does not exist.
int rank(const std::string& group);
int size(const std::string& group);
/// Ranks on this machine (mpirun's local rank and size); only the world has them.
int localRank();
int localSize();
int worldRankOf(const std::string& group, int groupRank);
int groupRankOf(const std::string& group, int worldRank);
/// A group of the given world ranks (this process among them); RuntimeError naming the problem.
void createGroup(const std::string& group, const std::vector<int>& worldRanks);
void destroyGroup(const std::string& group);

/// Seconds a collective waits for the other ranks before it fails naming the ranks that did
/// not arrive (GRADSTEP_COLLECTIVE_TIMEOUT, default 120).
double collectiveTimeout();
void setCollectiveTimeout(double seconds);

// The collectives. `count` is per rank; buffers are contiguous; `opName` (AllReduce, ...) names
// the collective in errors. A rank that does not arrive within the timeout is a RuntimeError
// naming the collective and the missing ranks.
void allReduce(const void* in, void* out, std::int64_t count, ElementType type, ReduceOp op,
               const std::string& group, const char* opName);
/// out holds size(group) * count elements, rank r's block at r * count.
void allGather(const void* in, void* out, std::int64_t count, ElementType type, const std::string& group,
               const char* opName);
/// in holds size(group) * count elements; out gets the reduction of every rank's block `rank`.
void reduceScatter(const void* in, void* out, std::int64_t count, ElementType type, ReduceOp op,
                   const std::string& group, const char* opName);
/// The root's buffer is copied into every rank's; root is a rank of the group.
void broadcast(void* buffer, std::int64_t count, ElementType type, int root, const std::string& group,
               const char* opName);
/// Block r of `in` (count elements) goes to rank r; block r of `out` comes from rank r.
void allToAll(const void* in, void* out, std::int64_t count, ElementType type, const std::string& group,
              const char* opName);
/// Collectives of the world group this process completed (0 without MPI): the same number on
/// every rank that is not inside one, so a rank's controller can tell which rank is behind.
/// Safe from any thread, also while a collective waits.
std::int64_t worldCollectivesCompleted();
/// A collective of the world group is under way in this process (it waits for the other ranks).
/// Safe from any thread.
bool inWorldCollective();

/// Every rank's values, on rank 0 of the world (other ranks get an empty list); lengths may differ.
std::vector<std::vector<double>> gatherToRoot(const std::vector<double>& values);

} // namespace gradstep::dist
