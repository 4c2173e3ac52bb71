// `gradstep debug --ranks N`: each rank runs the script under its own debug session (Note [Ranks
// under mpirun] in rank_launcher.cpp) until the first breakpoint, watchpoint or NaN. Ranks running
// the same script pause at the same node; these helpers check that across the ranks and print the
// ranks' reports one rank after another. Every rank must call them (they run collectives).
// SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <functional>
#include <string>

namespace gradstep::app {

/// After this rank's session stopped (`state` null: interrupted): on rank 0, one line saying that
/// all ranks paused at the same node (naming it) or where each one stopped; "" on the others.
/// Starts MPI if the script paused before it called init().
std::string agreeOnPause(const debug::SessionState* state);

/// Runs `print` on every rank in turn, rank 0 first, waiting between them, so that the ranks'
/// reports do not interleave.
void inRankOrder(const std::function<void(int rank)>& print);

} // namespace gradstep::app
