// `gradstep run --ranks N`: the N ranks of a data-parallel run, started through Open MPI's
// mpirun, each a `gradstep run` of the same script. SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace gradstep::app {

/// Runs `mpirun -n ranks ... gradstep run ARGS` and waits for it: 0 when every rank finished, 1
/// when one failed (its diagnostic, with its rank, is in the output), 127 when mpirun is missing
/// (said on stderr, naming the package that has it).
int launchRanks(int ranks, const std::vector<std::string>& runArguments);

} // namespace gradstep::app
