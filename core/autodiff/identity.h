// What names a node for people and for the debugger: sequence number, Cell scope path,
// source location (filled by the script loader), and execution phase. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace gradstep {

enum class Phase : std::uint8_t { Forward, Backward, Update };

const char* phaseName(Phase phase);

struct SourceLocation {
    std::shared_ptr<const std::string> file;
    int line = 0;
    int column = 0;
    /// Opaque handle the script loader may resolve lazily (frame position); 0 when unused.
    std::uint64_t token = 0;

    bool known() const { return file != nullptr || token != 0; }
    std::string toString() const;
};

} // namespace gradstep
