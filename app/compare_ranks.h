// compare --what ranks, the application's half (Note [The ranks what-if] in
// core/session/compare_ranks.cpp): side A's ranks are `gradstep compare ... --run-side a` under
// mpirun, each running the side in its process; rank 0 hands its figures back in the wire form.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

#include <string>
#include <vector>

namespace gradstep::app {

/// session::CompareOptions::runOnRanks: starts side.ranks ranks of this executable under mpirun,
/// waits (a cancel kills mpirun, which ends the ranks) and returns rank 0's figures, or an error
/// saying how the ranks ended. What the ranks printed goes to options.output afterwards.
session::StepFigures runSideOnRanks(const session::CompareSide& side, const session::CompareOptions& options,
                                    bool& interrupted);

/// The settings a rank must start from that the command line has no option for (the window's
/// what-if switches: options.base and the API profile), as one argument, and back.
std::string sideSettingsArgument(const session::CompareOptions& options);
/// False when `text` is not what sideSettingsArgument writes.
bool parseSideSettings(const std::string& text, session::CompareOptions& options);

} // namespace gradstep::app
