// Runs the built gradstep binary as a user would, capturing its exit status, stdout and stderr.
// SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace gradstep::test {

struct CommandResult {
    int status = -1;
    std::string out;
    std::string err;
};

/// Runs `gradstep ARGS` (ARGS already shell-quoted) in the source directory.
CommandResult runGradstep(const std::string& args);

/// Single-quotes a path or argument for /bin/sh.
std::string shellQuote(const std::string& text);

/// The path of a file under the source tree ("samples/xor_mlp.py").
std::filesystem::path sourcePath(const std::string& relative);

/// A fresh temporary directory, removed with the object.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::filesystem::path file(const std::string& name) const { return m_path / name; }
    /// Writes `text` to `name` and returns its path.
    std::filesystem::path write(const std::string& name, const std::string& text) const;

private:
    std::filesystem::path m_path;
};

} // namespace gradstep::test
