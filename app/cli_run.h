// `gradstep run SCRIPT ...`: runs a user's script headless. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "run". Returns the process exit status: 0 success, 1 script
/// error or timeout, 2 bad usage, 130 interrupted (Ctrl-C).
int runCommand(int argc, char** argv);

} // namespace gradstep::app
