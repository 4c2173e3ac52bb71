// What the Host knows about live runners, so shutdown() can stop them before finalising.
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::python {

class ScriptRunner;

void registerRunner(ScriptRunner* runner);
void unregisterRunner(ScriptRunner* runner);

} // namespace gradstep::python
