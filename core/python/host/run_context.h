// The run in progress as the bindings see it: its what-if switches (run_overrides.h) and what the
// debugger asked of it (a checkpoint to load). Note [One owner for a run's settings]: the script
// runner's RunEnvironment (script_exec.cpp) owns one RunContext per run and installs it for the
// run's lifetime with a RunContextScope; the bindings, called from the script without a handle to
// the run, read it through currentRun(). Between runs none is installed and the defaults apply, so
// no setting can outlive its run or leak into the next one. No Python header here.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/run_vocabulary.h"

namespace gradstep::python {

struct RunContext {
    RunOverrides overrides;
    /// A checkpoint (overrides.checkpoint) is read and waits for the Cell it loads into.
    bool checkpointArmed = false;
    /// The script asked for half precision (to_float, an amp level, a custom list).
    bool halfPrecisionAsked = false;
    /// AmpOverride::O2 applied amp's O2 to a network the script had left in float32.
    bool ampApplied = false;
};

/// The run in progress; a default RunContext between runs.
const RunContext& currentRun();
/// The run in progress to change (null between runs).
RunContext* activeRun();

/// Installs `context` as the run in progress until destroyed (one run at a time).
class RunContextScope {
public:
    explicit RunContextScope(RunContext& context);
    ~RunContextScope();
    RunContextScope(const RunContextScope&) = delete;
    RunContextScope& operator=(const RunContextScope&) = delete;

private:
    RunContext* m_previous;
};

} // namespace gradstep::python
