// A private temporary directory, removed with everything in it when the object goes: where a
// command hands files between its processes (compare's sides, migrate's captures).
// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace gradstep {

class TemporaryDirectory {
public:
    /// Under the system's temporary directory, named PREFIX-XXXXXX; RuntimeError when it cannot
    /// be created.
    explicit TemporaryDirectory(const std::string& prefix);
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace gradstep
