// The collectives over MPI's non-blocking calls, each waited for with a deadline (mpi_wait.cpp).
// In a world of one (no launcher) each is a copy. SPDX-License-Identifier: MIT
#include "dist/mpi_state.h"

#include "tensor/errors.h"

#include <algorithm>
#include <cstring>

namespace gradstep::dist {

namespace detail {

MPI_Datatype mpiType(ElementType type)
{
    switch (type) {
    case ElementType::Float32: return MPI_FLOAT;
    case ElementType::Float64: return MPI_DOUBLE;
    case ElementType::Int8: return MPI_INT8_T;
    case ElementType::UInt8: return MPI_UINT8_T;
    case ElementType::Int16: return MPI_INT16_T;
    case ElementType::Int32: return MPI_INT32_T;
    case ElementType::Int64: return MPI_INT64_T;
    case ElementType::Bool: return MPI_C_BOOL;
    }
    return MPI_BYTE;
}

std::size_t elementBytes(ElementType type)
{
    switch (type) {
    case ElementType::Float32: case ElementType::Int32: return 4;
    case ElementType::Float64: case ElementType::Int64: return 8;
    case ElementType::Int16: return 2;
    case ElementType::Int8: case ElementType::UInt8: return 1;
    case ElementType::Bool: return sizeof(bool);
    }
    return 1;
}

MPI_Op mpiOp(ReduceOp op, ElementType type)
{
    // MPI defines only logical reductions on booleans: sum and max are "any", prod and min "all".
    if (type == ElementType::Bool)
        return op == ReduceOp::Sum || op == ReduceOp::Max ? MPI_LOR : MPI_LAND;
    switch (op) {
    case ReduceOp::Sum: return MPI_SUM;
    case ReduceOp::Max: return MPI_MAX;
    case ReduceOp::Min: return MPI_MIN;
    case ReduceOp::Prod: return MPI_PROD;
    }
    return MPI_SUM;
}

} // namespace detail

using namespace detail;

namespace {

int mpiCount(std::int64_t count, const char* opName)
{
    if (count < 0 || count > 0x7fffffff)
        throw ValueError(std::string("For '") + opName + "', " + std::to_string(count)
                         + " elements per rank are more than MPI can move in one call (2**31 - 1)");
    return static_cast<int>(count);
}

void copy(const void* in, void* out, std::int64_t count, ElementType type)
{
    if (count > 0 && in != out)
        std::memcpy(out, in, static_cast<std::size_t>(count) * elementBytes(type));
}

/// One collective on group `name`: in a group of one rank (no communicator) `alone` stands in for
/// it; else `start` begins the non-blocking MPI call, which waitFor sees through to the deadline.
/// In a remote world (remote_world.h), a group of more than one rank runs `kind` there; true then.
bool ranRemotely(CollectiveKind kind, const void* in, std::size_t inBytes, void* out, std::size_t outBytes,
                 std::int64_t count, ElementType type, ReduceOp op, int root, const std::string& name,
                 const char* opName)
{
    State& s = state();
    if (!s.remote)
        return false;
    GroupEntry& g = group(name, opName);
    if (g.worldRanks.size() < 2)
        return false;
    refuseIfEnding(opName);
    const bool world = isWorldGroup(name);
    s.inWorldCollective = world;
    try {
        s.remote->collective(kind, in, inBytes, out, outBytes, count, type, op, root, name, opName);
    } catch (...) {
        s.inWorldCollective = false;
        throw;
    }
    s.inWorldCollective = false;
    ++g.sequence;
    if (world)
        ++s.worldCompleted;
    return true;
}

template <class Alone, class Start>
void collective(const std::string& name, const char* opName, Alone alone, Start start)
{
    std::lock_guard lock(state().mutex);
    GroupEntry& g = group(name, opName);
    if (g.comm == MPI_COMM_NULL)
        return alone();
    refuseIfEnding(opName);
    MPI_Request request = MPI_REQUEST_NULL;
    check(start(g.comm, &request), opName);
    waitFor(request, g, name, opName);
}

} // namespace

/// Bytes of `count` elements times `blocks`.
static std::size_t bytesOf(std::int64_t count, ElementType type, std::size_t blocks = 1)
{
    return static_cast<std::size_t>(std::max<std::int64_t>(count, 0)) * elementBytes(type) * blocks;
}

static std::size_t groupSize(const std::string& name, const char* opName)
{
    return group(name, opName).worldRanks.size();
}

void allReduce(const void* in, void* out, std::int64_t count, ElementType type, ReduceOp op, const std::string& name,
               const char* opName)
{
    std::lock_guard lock(state().mutex);
    if (ranRemotely(CollectiveKind::AllReduce, in, bytesOf(count, type), out, bytesOf(count, type), count, type, op, 0,
                    name, opName))
        return;
    collective(name, opName, [&] { copy(in, out, count, type); }, [&](MPI_Comm comm, MPI_Request* request) {
        return MPI_Iallreduce(in, out, mpiCount(count, opName), mpiType(type), mpiOp(op, type), comm, request);
    });
}

void allGather(const void* in, void* out, std::int64_t count, ElementType type, const std::string& name,
               const char* opName)
{
    std::lock_guard lock(state().mutex);
    if (ranRemotely(CollectiveKind::AllGather, in, bytesOf(count, type), out,
                    bytesOf(count, type, groupSize(name, opName)), count, type, ReduceOp::Sum, 0, name, opName))
        return;
    collective(name, opName, [&] { copy(in, out, count, type); }, [&](MPI_Comm comm, MPI_Request* request) {
        const int n = mpiCount(count, opName);
        return MPI_Iallgather(in, n, mpiType(type), out, n, mpiType(type), comm, request);
    });
}

void reduceScatter(const void* in, void* out, std::int64_t count, ElementType type, ReduceOp op,
                   const std::string& name, const char* opName)
{
    std::lock_guard lock(state().mutex);
    if (ranRemotely(CollectiveKind::ReduceScatter, in, bytesOf(count, type, groupSize(name, opName)), out,
                    bytesOf(count, type), count, type, op, 0, name, opName))
        return;
    collective(name, opName, [&] { copy(in, out, count, type); }, [&](MPI_Comm comm, MPI_Request* request) {
        return MPI_Ireduce_scatter_block(in, out, mpiCount(count, opName), mpiType(type), mpiOp(op, type), comm,
                                         request);
    });
}

void broadcast(void* buffer, std::int64_t count, ElementType type, int root, const std::string& name,
               const char* opName)
{
    std::lock_guard lock(state().mutex);
    GroupEntry& g = group(name, opName);
    if (root < 0 || root >= static_cast<int>(g.worldRanks.size()))
        throw ValueError(std::string("For '") + opName + "', the 'root_rank' must be in [0, "
                         + std::to_string(g.worldRanks.size()) + "), but got " + std::to_string(root) + ".");
    if (ranRemotely(CollectiveKind::Broadcast, buffer, bytesOf(count, type), buffer, bytesOf(count, type), count, type,
                    ReduceOp::Sum, root, name, opName)
        || g.comm == MPI_COMM_NULL)
        return;
    refuseIfEnding(opName);
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ibcast(buffer, mpiCount(count, opName), mpiType(type), root, g.comm, &request), opName);
    waitFor(request, g, name, opName);
}

void allToAll(const void* in, void* out, std::int64_t count, ElementType type, const std::string& name,
              const char* opName)
{
    std::lock_guard lock(state().mutex);
    const std::size_t blocks = groupSize(name, opName);
    const std::size_t bytes = bytesOf(count, type, blocks);
    if (ranRemotely(CollectiveKind::AllToAll, in, bytes, out, bytes, count, type, ReduceOp::Sum, 0, name, opName))
        return;
    collective(name, opName, [&] { copy(in, out, count, type); }, [&](MPI_Comm comm, MPI_Request* request) {
        const int n = mpiCount(count, opName);
        return MPI_Ialltoall(in, n, mpiType(type), out, n, mpiType(type), comm, request);
    });
}

std::vector<std::vector<double>> gatherToRoot(const std::vector<double>& values)
{
    std::lock_guard lock(state().mutex);
    GroupEntry& world = group("hccl_world_group", "gather");
    if (state().remote && world.worldRanks.size() > 1)
        return state().remote->gatherToRoot(values);
    if (world.comm == MPI_COMM_NULL)
        return {values};
    refuseIfEnding("gather");
    const int size = static_cast<int>(world.worldRanks.size());
    int count = mpiCount(static_cast<std::int64_t>(values.size()), "gather");
    std::vector<int> counts(static_cast<std::size_t>(size));
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, world.comm, &request), "gather");
    waitFor(request, world, "hccl_world_group", "gather");
    std::vector<int> offsets(static_cast<std::size_t>(size));
    int total = 0;
    for (int r = 0; r < size; ++r) {
        offsets[static_cast<std::size_t>(r)] = total;
        total += counts[static_cast<std::size_t>(r)];
    }
    std::vector<double> all(static_cast<std::size_t>(total));
    check(MPI_Igatherv(values.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0,
                       world.comm, &request),
          "gather");
    waitFor(request, world, "hccl_world_group", "gather");
    if (world.rank != 0)
        return {};
    std::vector<std::vector<double>> out;
    for (int r = 0; r < size; ++r)
        out.emplace_back(all.begin() + offsets[static_cast<std::size_t>(r)],
                         all.begin() + offsets[static_cast<std::size_t>(r)] + counts[static_cast<std::size_t>(r)]);
    return out;
}

} // namespace gradstep::dist
