// Where the ranks paused. Like ranks-diverge, the collectives go through core/dist directly.
// SPDX-License-Identifier: MIT
#include "app/rank_pause.h"

#include "app/cli_common.h"
#include "dist/communicator.h"

#include <cstdio>
#include <vector>

namespace gradstep::app {

namespace {

const std::string kWorld = "hccl_world_group";

/// One rank's stop as numbers: [paused at a node (1) or not (0), step, node seq, status].
std::vector<double> describe(const debug::SessionState* state)
{
    if (!state)
        return {0.0, 0.0, 0.0, -1.0};
    const bool atNode = state->status == debug::SessionStatus::Paused && state->liveNode;
    return {atNode ? 1.0 : 0.0, static_cast<double>(state->step),
            atNode ? static_cast<double>(state->liveNode->seq) : 0.0, static_cast<double>(state->status)};
}

std::string whereText(const std::vector<double>& d)
{
    if (d[0] == 1.0)
        return "node #" + std::to_string(static_cast<long long>(d[2])) + " of step "
               + std::to_string(static_cast<long long>(d[1]));
    if (d[3] < 0)
        return "interrupted";
    return std::string("not paused at a node (") + debug::sessionStatusName(static_cast<debug::SessionStatus>(d[3]))
           + ")";
}

} // namespace

std::string agreeOnPause(const debug::SessionState* state)
{
    if (!dist::isInitialized())
        dist::initialize();
    const std::vector<std::vector<double>> all = dist::gatherToRoot(describe(state));
    if (all.empty())
        return {};
    bool same = all.front()[0] == 1.0;
    for (const auto& d : all)
        same = same && d == all.front();
    const std::string ranks = std::to_string(all.size());
    if (same)
        return "[gradstep] all " + ranks + " ranks paused at the same node: " + state->liveNode->fullName + " ("
               + whereText(all.front()) + ")\n";
    std::string text = "[gradstep] the " + ranks + " ranks did not pause at the same node:";
    for (std::size_t r = 0; r < all.size(); ++r)
        text += (r ? "; rank " : " rank ") + std::to_string(r) + " " + whereText(all[r]);
    return text + "\n";
}

void inRankOrder(const std::function<void(int rank)>& print)
{
    const int ranks = dist::size(kWorld), me = dist::rank(kWorld);
    for (int r = 0; r < ranks; ++r) {
        if (r == me) {
            print(me);
            finishOutputLines();
            std::fflush(stdout);
            std::fflush(stderr);
        }
        int token = 0, sum = 0; // a barrier: nobody goes on before rank r printed
        dist::allReduce(&token, &sum, 1, dist::ElementType::Int32, dist::ReduceOp::Sum, kWorld, "debug --ranks");
    }
}

} // namespace gradstep::app
