// What the Host knows about live runners, so shutdown() can stop them before finalising.
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::python {

class ScriptRunner;

void registerRunner(ScriptRunner* runner);
void unregisterRunner(ScriptRunner* runner);
/// A runner gave up on a blocked script (Note [Giving up on a blocked script]): its thread may
/// still be inside the interpreter, so shutdown() must not finalise Python.
void noteAbandonedRun();

} // namespace gradstep::python
