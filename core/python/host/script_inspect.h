// Reading a paused script's frames and variables from another thread (GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/script_runner.h"
#include "python/host/user_files.h"

#include <vector>

namespace gradstep::python {

/// The frames of thread `threadId` (PyThread_get_thread_ident) that lie in the user's files,
/// outermost first, with their variables.
std::vector<StackFrame> stackOfThread(unsigned long threadId, const UserFiles& files);

} // namespace gradstep::python
