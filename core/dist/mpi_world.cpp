// The world and its groups over MPI: lazy start, rank queries, create/destroy group, finalize
// and abort. SPDX-License-Identifier: MIT
#include "dist/mpi_state.h"

#include "tensor/errors.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gradstep::dist {

namespace detail {

State& state()
{
    static State s;
    return s;
}

void check(int code, const char* what)
{
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw RuntimeError(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

GroupEntry& group(const std::string& name, const char* function)
{
    State& s = state();
    if (!s.initialized)
        throw RuntimeError(std::string("For '") + function
                           + "', the communication service is not initialized: call "
                             "mindspore.communication.init() first.");
    const std::string key = isWorldGroup(name) ? std::string("hccl_world_group") : name;
    const auto found = s.groups.find(key);
    if (found == s.groups.end())
        throw RuntimeError(std::string("For '") + function + "', the group '" + name
                           + "' does not exist; create it with create_group first.");
    return found->second;
}

void refuseIfEnding(const char* opName)
{
    if (state().refusing)
        throw RuntimeError(std::string("For '") + opName + "', the ranks are ending: no collective starts any more");
}

} // namespace detail

using namespace detail;

bool isWorldGroup(const std::string& group)
{
    return group == "hccl_world_group" || group == "nccl_world_group" || group == "mccl_world_group";
}

void initialize()
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (s.initialized)
        return;
    if (s.groups.count("hccl_world_group")) { // after release(): the world is still there
        s.initialized = true;
        return;
    }
    s.launch = s.remote ? s.remote->join() : launchEnvironment();
    GroupEntry world;
    if (s.launch.launched && !s.remote) {
        int provided = 0;
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
        // Errors come back as codes (exceptions with MPI's text), not as aborts of the job.
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        check(MPI_Comm_dup(MPI_COMM_WORLD, &world.comm), "MPI_Comm_dup");
        check(MPI_Comm_dup(MPI_COMM_WORLD, &s.control), "MPI_Comm_dup");
        MPI_Comm_rank(MPI_COMM_WORLD, &s.launch.rank);
        MPI_Comm_size(MPI_COMM_WORLD, &s.launch.size);
        s.mpi = true;
    }
    for (int r = 0; r < s.launch.size; ++r)
        world.worldRanks.push_back(r);
    world.rank = s.launch.rank;
    s.groups["hccl_world_group"] = std::move(world);
    s.initialized = true;
}

bool isInitialized()
{
    std::lock_guard lock(state().mutex);
    return state().initialized;
}

std::int64_t worldCollectivesCompleted()
{
    return state().worldCompleted.load();
}

void refuseCollectives()
{
    state().refusing = true;
}

bool inWorldCollective()
{
    return state().inWorldCollective.load();
}

bool usesMpi()
{
    std::lock_guard lock(state().mutex);
    return state().mpi || state().remote;
}

void setRemoteWorld(std::shared_ptr<RemoteWorld> world)
{
    State& s = state();
    if (std::shared_ptr<RemoteWorld> old = s.remote) // no lock: a collective under way holds it
        old->interrupt();
    std::lock_guard lock(s.mutex);
    if (s.mpi)
        throw RuntimeError("this process runs MPI itself: it cannot join a remote world");
    s.remote = std::move(world);
    s.groups.clear();
    s.initialized = false;
    s.launch = Launch{};
    s.worldCompleted = 0;
    s.inWorldCollective = false;
}

void release()
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    for (auto it = s.groups.begin(); it != s.groups.end();) {
        if (it->first == "hccl_world_group") {
            ++it;
            continue;
        }
        if (it->second.comm != MPI_COMM_NULL)
            MPI_Comm_free(&it->second.comm);
        if (s.remote && it->second.worldRanks.size() > 1)
            s.remote->destroyGroup(it->first);
        it = s.groups.erase(it);
    }
    s.initialized = false;
}

void finalize()
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (s.mpi) {
        for (auto& [name, entry] : s.groups)
            if (entry.comm != MPI_COMM_NULL)
                MPI_Comm_free(&entry.comm);
        MPI_Comm_free(&s.control);
        MPI_Finalize();
    }
    s.groups.clear();
    s.mpi = false;
    s.initialized = false;
}

void abortAll(int status)
{
    std::fflush(stdout);
    std::fflush(stderr);
    // No lock: the failing thread may hold it inside a collective that will never finish.
    if (state().mpi)
        MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
}

int rank(const std::string& name)
{
    std::lock_guard lock(state().mutex);
    return group(name, "get_rank").rank;
}

int size(const std::string& name)
{
    std::lock_guard lock(state().mutex);
    return static_cast<int>(group(name, "get_group_size").worldRanks.size());
}

int localRank()
{
    std::lock_guard lock(state().mutex);
    group("hccl_world_group", "get_local_rank");
    return state().launch.localRank;
}

int localSize()
{
    std::lock_guard lock(state().mutex);
    group("hccl_world_group", "get_local_rank_size");
    return state().launch.localSize;
}

int worldRankOf(const std::string& name, int groupRank)
{
    std::lock_guard lock(state().mutex);
    const GroupEntry& entry = group(name, "get_world_rank_from_group_rank");
    if (groupRank < 0 || groupRank >= static_cast<int>(entry.worldRanks.size()))
        throw ValueError("For 'get_world_rank_from_group_rank', the 'group_rank_id' must be in [0, "
                         + std::to_string(entry.worldRanks.size()) + "), but got " + std::to_string(groupRank) + ".");
    return entry.worldRanks[static_cast<std::size_t>(groupRank)];
}

int groupRankOf(const std::string& name, int worldRank)
{
    std::lock_guard lock(state().mutex);
    const GroupEntry& entry = group(name, "get_group_rank_from_world_rank");
    const auto found = std::find(entry.worldRanks.begin(), entry.worldRanks.end(), worldRank);
    if (found == entry.worldRanks.end())
        throw ValueError("For 'get_group_rank_from_world_rank', the world rank " + std::to_string(worldRank)
                         + " is not in the group '" + name + "'.");
    return static_cast<int>(found - entry.worldRanks.begin());
}

void createGroup(const std::string& name, const std::vector<int>& worldRanks)
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    group("hccl_world_group", "create_group");
    if (isWorldGroup(name) || s.groups.count(name))
        throw ValueError("For 'create_group', the group '" + name + "' already exists.");
    if (worldRanks.empty())
        throw ValueError("For 'create_group', the 'rank_ids' must not be empty.");
    std::vector<int> sorted = worldRanks;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        throw ValueError("For 'create_group', the elements of 'rank_ids' must not be duplicate.");
    if (sorted.front() < 0 || sorted.back() >= s.launch.size)
        throw ValueError("For 'create_group', the elements of 'rank_ids' must be in [0, " + std::to_string(s.launch.size)
                         + "), but got " + std::to_string(sorted.front() < 0 ? sorted.front() : sorted.back()) + ".");
    const auto self = std::find(worldRanks.begin(), worldRanks.end(), s.launch.rank);
    if (self == worldRanks.end())
        throw ValueError("For 'create_group', the 'rank_ids' must contain this process's rank "
                         + std::to_string(s.launch.rank) + ".");
    GroupEntry entry;
    entry.worldRanks = worldRanks;
    entry.rank = static_cast<int>(self - worldRanks.begin());
    if (s.remote && worldRanks.size() > 1)
        s.remote->createGroup(name, worldRanks);
    if (s.mpi) {
        MPI_Group worldGroup = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
        MPI_Comm_group(MPI_COMM_WORLD, &worldGroup);
        MPI_Group_incl(worldGroup, static_cast<int>(worldRanks.size()), worldRanks.data(), &members);
        const int code = MPI_Comm_create_group(MPI_COMM_WORLD, members, 0, &entry.comm);
        MPI_Group_free(&members);
        MPI_Group_free(&worldGroup);
        check(code, "For 'create_group', MPI_Comm_create_group");
        MPI_Comm_set_errhandler(entry.comm, MPI_ERRORS_RETURN);
    }
    s.groups[name] = std::move(entry);
}

void destroyGroup(const std::string& name)
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (isWorldGroup(name))
        throw ValueError("For 'destroy_group', the world group '" + name + "' cannot be destroyed.");
    GroupEntry& entry = group(name, "destroy_group");
    if (s.remote && entry.worldRanks.size() > 1)
        s.remote->destroyGroup(name);
    if (entry.comm != MPI_COMM_NULL)
        MPI_Comm_free(&entry.comm);
    s.groups.erase(name);
}

double collectiveTimeout()
{
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (s.timeoutSeconds < 0) {
        s.timeoutSeconds = 120.0;
        if (const char* text = std::getenv("GRADSTEP_COLLECTIVE_TIMEOUT")) {
            char* end = nullptr;
            const double value = std::strtod(text, &end);
            if (*end == '\0' && value > 0)
                s.timeoutSeconds = value;
        }
    }
    return s.timeoutSeconds;
}

void setCollectiveTimeout(double seconds)
{
    std::lock_guard lock(state().mutex);
    state().timeoutSeconds = seconds;
}

} // namespace gradstep::dist
