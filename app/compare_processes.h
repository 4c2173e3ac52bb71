// Note [both sides at once]: the embedded interpreter runs one script at a time, so a comparison
// over many steps runs each side in a child process of its own (`gradstep compare ... --run-side
// a|b`) and the two at the same time on a machine with two cores or more: N steps then cost about
// one run, not two. Each child writes its side in the wire form (session::sideToJson) and keeps
// what its script prints in a file of its own, shown after both end, so the two never interleave.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

#include <string>
#include <vector>

namespace gradstep::app {

/// What one child was asked to run: its arguments after `gradstep compare`.
struct SideCommand {
    std::string label;
    std::vector<std::string> args;
};

struct SideOutcome {
    session::StepFigures figures; ///< the side, or an error saying why the child gave none
    std::string output;           ///< what the child printed (the script's output and its own)
    bool interrupted = false;     ///< the child ended on Ctrl-C
};

/// Runs the two children at once and waits for both. A child that ends without writing its side
/// (killed, crashed) becomes a side whose error says how it ended. Ctrl-C reaches the children
/// from the terminal; one sent to this process alone is passed on to them.
std::pair<SideOutcome, SideOutcome> runSidesInProcesses(const SideCommand& a, const SideCommand& b);

/// True when this machine can run the two sides at the same time.
bool sidesRunInParallel();

} // namespace gradstep::app
