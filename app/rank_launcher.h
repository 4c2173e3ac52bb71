// `gradstep run --ranks N`: the N ranks of a data-parallel run, started through Open MPI's
// mpirun, each a `gradstep run` of the same script. SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace gradstep::app {

/// Runs `mpirun -n ranks ... gradstep COMMAND ARGS` (run, or debug) and waits for it: 0 when every rank finished, 1
/// when one failed (its diagnostic, with its rank, is in the output), 127 when mpirun is missing
/// (said on stderr, naming the package that has it).
int launchRanks(int ranks, const std::vector<std::string>& runArguments, const std::string& command = "run");

/// `mpirun -n ranks` with the flags every launch here uses (allow-run-as-root as root,
/// oversubscribe, no binding) followed by this executable's path; empty when mpirun is not on
/// PATH.
std::vector<std::string> mpirunCommand(int ranks);

/// mpirunCommand, passing the ranks' controller socket variable (session/rank_wire.h) on to every
/// rank: what a session::RankController starts. Empty when mpirun is not on PATH.
std::vector<std::string> rankServeLauncher(int ranks);

/// `gradstep rank-relay` under mpirun: MPI rank 0 for the window, whose own session is rank 0
/// (session/rank_relay.h), until the window's controller closes the connection. 0 then, 1 when
/// it is not run by such a controller.
int relayRank();

} // namespace gradstep::app
