// `gradstep debug --ranks N --interactive`: the ranks stepped together from commands on standard
// input (step, over, out, continue, pause, where, print NAME [--rank K], grads, quit), through the same
// session::RankController as the window's Ranks panel. SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace gradstep::app {

/// Starts `ranks` ranks of `gradstep debug DEBUG_ARGUMENTS` and serves the commands until quit
/// or the end of input. 0 after quit or when every rank finished, 1 when a rank failed or died
/// (the reason, with the rank's diagnostic, on stderr), 127 without mpirun.
int runRankConsole(int ranks, const std::vector<std::string>& debugArguments);

} // namespace gradstep::app
