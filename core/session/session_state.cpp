// Names of run commands, statuses and pause reasons, as the CLI and --json print them.
// SPDX-License-Identifier: MIT
#include "session/session_state.h"

namespace gradstep::debug {

const char* runCommandName(RunCommand::Kind kind)
{
    switch (kind) {
    case RunCommand::Kind::StepInto: return "step into";
    case RunCommand::Kind::StepOver: return "step over";
    case RunCommand::Kind::StepOut: return "step out";
    case RunCommand::Kind::Continue: return "continue";
    case RunCommand::Kind::EndOfStep: return "run to end of step";
    case RunCommand::Kind::Steps: return "run steps";
    }
    return "step into";
}

const char* sessionStatusName(SessionStatus status)
{
    switch (status) {
    case SessionStatus::Idle: return "idle";
    case SessionStatus::Running: return "running";
    case SessionStatus::Paused: return "paused";
    case SessionStatus::Finished: return "finished";
    case SessionStatus::Failed: return "failed";
    case SessionStatus::Cancelled: return "cancelled";
    }
    return "idle";
}

const char* pauseReasonName(PauseReason reason)
{
    switch (reason) {
    case PauseReason::None: return "none";
    case PauseReason::Command: return "step";
    case PauseReason::Pause: return "pause";
    case PauseReason::Breakpoint: return "breakpoint";
    case PauseReason::Watchpoint: return "watchpoint";
    case PauseReason::Nan: return "nan";
    case PauseReason::End: return "end";
    case PauseReason::Error: return "error";
    case PauseReason::Cancelled: return "cancelled";
    }
    return "none";
}

} // namespace gradstep::debug
