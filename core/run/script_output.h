// What a running script shows the debugger: what it prints, and the frames and variables of a
// paused script. Part of the run vocabulary (core/run): no Python. SPDX-License-Identifier: MIT
#pragma once

#include "run/diagnostic.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep::run {

enum class OutputStream { Stdout, Stderr };
/// Receives what the script prints, on the worker thread while it holds the GIL: copy the text
/// and return quickly; never wait for another thread that may need Python.
using OutputCallback = std::function<void(OutputStream, std::string_view)>;

/// A variable of a paused frame, for display.
struct Variable {
    std::string name;
    std::string type;  ///< "Tensor", "int", "LeNet5"
    std::string value; ///< repr(), cut to 200 characters
};

/// A frame of the user's code in a paused script.
struct StackFrame {
    TraceFrame frame;
    std::vector<Variable> locals; ///< at module level: the script's globals, without modules,
                                  ///< functions, classes and __dunder__ names
};

} // namespace gradstep::run
