// A guard against running out of C stack in code that Python can re-enter without bound (a Cell
// whose construct calls itself): RecursionError before the thread's stack is gone.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <thread>

namespace gradstep::python {

/// Throws RecursionError (as a Python error) when less than a safety margin of the calling
/// thread's stack is left. `what` names the call for the message.
void checkStackDepth(const char* what);

/// The stack size of the threads that run scripts: far more than the 8 MiB default, so that a
/// script raising sys.setrecursionlimit recurses as deep as Python lets it (the memory is only
/// reserved, and committed as the stack grows).
inline constexpr std::size_t kScriptThreadStack = std::size_t{512} * 1024 * 1024;

/// Starts fn on a new thread with kScriptThreadStack bytes of stack.
std::thread startScriptThread(std::function<void()> fn);

} // namespace gradstep::python
