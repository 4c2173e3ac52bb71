// Line events for a LineListener: a C trace function on the script's thread that reports the
// lines of the user's files and switches line events off in every other frame (the mindspore
// package, the standard library), so only the user's code pays for them. Installed only while the
// listener wants lines. No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include "python/host/line_listener.h"

namespace gradstep::python {

class SourceLocator;

/// For the lifetime of a run on the calling (script) thread, which holds the GIL: reports lines
/// to `listener` (null: none) while it wants them, using `locator` to tell the user's code.
class LineTraceScope {
public:
    LineTraceScope(LineListener* listener, SourceLocator& locator);
    ~LineTraceScope();
    LineTraceScope(const LineTraceScope&) = delete;
    LineTraceScope& operator=(const LineTraceScope&) = delete;
};

/// While alive on the script thread, its lines are not reported: graph mode compiles a function by
/// evaluating pieces of the user's statements, which is not the script running those lines.
class QuietLines {
public:
    QuietLines();
    ~QuietLines();
    QuietLines(const QuietLines&) = delete;
    QuietLines& operator=(const QuietLines&) = delete;
};

/// Installs or removes the trace on the calling script thread as the listener now wants; a no-op
/// outside a LineTraceScope. Cheap: call it whenever the wanted lines may have changed.
void syncLineTrace();

} // namespace gradstep::python
