// `gradstep demo`: LeNet5 trained on the shipped digits, headless. SPDX-License-Identifier: MIT
#pragma once

namespace gradstep {

/// argv holds the arguments after "demo"; returns the process exit status.
int runDemo(int argc, char** argv);

} // namespace gradstep
