// `gradstep debug SCRIPT [--break ...] [--watch ...] [--steps N] [--json]`. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "debug". Returns the process exit status.
int debugCommand(int argc, char** argv);

} // namespace gradstep::app
