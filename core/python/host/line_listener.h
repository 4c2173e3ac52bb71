// What the script runner tells a debugger about the lines a script runs: the Session listens so a
// line breakpoint stops on any executed line of the user's code, not only on lines that run a
// tensor op. No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

namespace gradstep::python {

class LineListener {
public:
    virtual ~LineListener() = default;
    /// Whether line events are wanted now. Tracing lines slows Python code down, so the runner
    /// traces only while this is true; it asks at the start and whenever syncLineTrace() is called.
    virtual bool wantsLines() const = 0;
    /// A line of the user's code is about to run, on the script's thread with the GIL held (the
    /// listener may pause there). `frame` identifies the running frame: a second event from the
    /// same frame is a new arrival (the next line, or the same line again in a loop).
    virtual void lineReached(const std::shared_ptr<const std::string>& file, int line, const void* frame) = 0;
    /// The script traces itself (sys.settrace, a coverage tool) while lines are wanted: its trace
    /// stays, and the listener hears no more lines. Called once per run, on the script's thread.
    virtual void lineTraceDisplaced() = 0;
};

} // namespace gradstep::python
