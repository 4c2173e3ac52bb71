// What the launcher says through the environment. Open MPI's mpirun sets OMPI_COMM_WORLD_*;
// other PMIx launchers set PMIX_RANK only (their size comes from MPI once it starts).
// SPDX-License-Identifier: MIT
#include "dist/communicator.h"

#include <cstdlib>
#include <string>

namespace gradstep::dist {

namespace {
int environmentInt(const char* name, int fallback)
{
    const char* text = std::getenv(name);
    if (!text || !*text)
        return fallback;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    return *end == '\0' && value >= 0 && value < (1 << 24) ? static_cast<int>(value) : fallback;
}
} // namespace

Launch launchEnvironment()
{
    Launch launch;
    launch.launched = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
    if (!launch.launched)
        return launch;
    launch.rank = environmentInt("OMPI_COMM_WORLD_RANK", environmentInt("PMIX_RANK", 0));
    launch.size = environmentInt("OMPI_COMM_WORLD_SIZE", 1);
    launch.localRank = environmentInt("OMPI_COMM_WORLD_LOCAL_RANK", launch.rank);
    launch.localSize = environmentInt("OMPI_COMM_WORLD_LOCAL_SIZE", launch.size);
    return launch;
}

} // namespace gradstep::dist
