// Where gradstep finds what it ships. SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>

namespace gradstep::app {

/// The samples directory, PREFIX/share/gradstep/samples for the executable PREFIX/bin/gradstep:
/// found from the executable's own path, so any prefix and any working directory work. A build
/// directory mirrors that layout (BUILD/share/gradstep/samples links to the source tree's
/// samples/, packaging/CMakeLists.txt), so an installed binary holds no build or source path.
std::filesystem::path samplesDirectory();

} // namespace gradstep::app
