// SPDX-License-Identifier: MIT
#include "io/temporary_directory.h"

#include "tensor/errors.h"

#include <cstdlib>
#include <system_error>

namespace gradstep {

TemporaryDirectory::TemporaryDirectory(const std::string& prefix)
{
    const std::filesystem::path base = std::filesystem::temp_directory_path();
    std::string pattern = (base / (prefix + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
        throw RuntimeError("cannot create a temporary directory in " + base.string());
    m_path = pattern;
}

TemporaryDirectory::~TemporaryDirectory()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

} // namespace gradstep
