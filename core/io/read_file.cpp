// SPDX-License-Identifier: MIT
#include "io/read_file.h"

#include <fstream>
#include <sstream>

namespace gradstep {

std::string readWholeFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace gradstep
