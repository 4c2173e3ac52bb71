// SPDX-License-Identifier: MIT
#include "app/install_layout.h"

#include <system_error>

namespace gradstep::app {

std::filesystem::path samplesDirectory()
{
    std::error_code error;
    auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        executable = std::filesystem::path("/usr/bin/gradstep");
    return (executable.parent_path() / ".." / "share" / "gradstep" / "samples").lexically_normal();
}

} // namespace gradstep::app
