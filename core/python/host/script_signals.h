// Signal handlers of scripts: see Note [Signal handlers on the script thread].
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::python {

/// Puts signal.signal / signal.getsignal of the script's view in place (once per process).
void installScriptSignals();
/// True when a signal the script handles arrived and its handler has not run yet (any thread,
/// no GIL needed).
bool scriptSignalsPending();
/// Runs the handlers of the signals that arrived, GIL held, as if between two bytecodes of the
/// script's thread `threadId`; an exception a handler raises is raised in that thread.
void deliverScriptSignals(unsigned long threadId);
/// Puts back every disposition the run changed and forgets its handlers (GIL held).
void resetScriptSignals();

} // namespace gradstep::python
