// Where an installed gradstep finds what it ships. SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

namespace gradstep::app {

/// The samples directory: PREFIX/share/gradstep/samples beside an installed PREFIX/bin/gradstep
/// (found from the executable's own path, so any prefix and any working directory work), else
/// the source tree's samples/ for a binary run from its build directory.
std::filesystem::path samplesDirectory();

} // namespace gradstep::app
