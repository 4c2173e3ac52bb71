// Starting a child program whose standard output and error go to one file: how compare's side
// processes and the ranks of `compare --what ranks` are started. SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>

namespace gradstep {

/// The child's standard input: the caller's, or /dev/null (a child that must never wait for a
/// terminal).
enum class ChildInput { Inherited, Nothing };

/// Starts args[0] (a path) with args, stdout and stderr written to `output` (created or
/// truncated); the child's pid goes to `pid`. Returns 0, or the errno posix_spawn gave.
int spawnWithOutput(std::vector<std::string> args, const std::filesystem::path& output, pid_t& pid,
                    ChildInput input = ChildInput::Inherited);

} // namespace gradstep
