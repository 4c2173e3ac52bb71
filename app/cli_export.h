// `gradstep export SCRIPT --graph forward|backward|train-step -o FILE`: runs the script headless
// to the end of its first training step and writes that step's graph. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "export". Returns 0 when the file was written, 1 when the
/// script failed or had nothing to draw, 2 for bad usage, 130 when interrupted (Ctrl-C).
int exportCommand(int argc, char** argv);

} // namespace gradstep::app
