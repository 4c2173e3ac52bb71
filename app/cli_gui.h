// `gradstep gui [SCRIPT] [--screenshot FILE.png] [--steps-into N] [--view VIEW]`: the desktop
// window. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "gui". Returns the exit status.
int guiCommand(int argc, char** argv);

} // namespace gradstep::app
