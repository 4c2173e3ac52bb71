// SPDX-License-Identifier: MIT
#include "app/install_layout.h"

#include <system_error>

namespace gradstep::app {

std::filesystem::path samplesDirectory()
{
    std::error_code error;
    const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const auto installed
            = (executable.parent_path() / ".." / "share" / "gradstep" / "samples").lexically_normal();
        if (std::filesystem::is_directory(installed, error))
            return installed;
    }
    return std::filesystem::path(GRADSTEP_SOURCE_DIR) / "samples";
}

} // namespace gradstep::app
