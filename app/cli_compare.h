// `gradstep compare SCRIPT --what ...`: the first training step under two settings, side by side.
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "compare". Returns the process exit status: 0 both runs gave a
/// step, 1 a run failed before its step (or the report could not be written), 2 bad usage, 130
/// interrupted (Ctrl-C).
int compareCommand(int argc, char** argv);

} // namespace gradstep::app
