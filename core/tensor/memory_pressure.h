// What gives memory back when a tensor cannot be allocated: the debugger's recording registers
// here, so that a script short of memory gets the snapshots' memory before its allocation fails
// (Note [Recording under memory pressure]). SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>

namespace gradstep {

/// Frees what it can; true when it freed something (the allocation is then tried again).
using MemoryPressureHandler = std::function<bool()>;

/// Registers `handler` until unregisterMemoryPressureHandler(token). Thread-safe.
std::uint64_t registerMemoryPressureHandler(MemoryPressureHandler handler);
void unregisterMemoryPressureHandler(std::uint64_t token);
/// Calls every handler (on the allocating thread); true when any freed something.
bool relieveMemoryPressure();

} // namespace gradstep
