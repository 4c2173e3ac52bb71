// A whole file as bytes: what a child process wrote (its output, its report). SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>

namespace gradstep {

/// The file's bytes; empty when it cannot be read (callers check existence where it matters).
std::string readWholeFile(const std::filesystem::path& path);

} // namespace gradstep
