// Note [The run vocabulary]: what a run takes and gives back (its what-if switches, its
// diagnostics, its output and paused frames) is defined in core/run, without Python, so the
// Session and the views speak it without depending on the Python layer. core/python implements
// it and uses its names unqualified. SPDX-License-Identifier: MIT
#pragma once

#include "run/diagnostic.h"
#include "run/run_overrides.h"
#include "run/script_output.h"

namespace gradstep::python {

using run::Diagnostic;
using run::findNulByte;
using run::GradApiOverride;
using run::HasAuxOverride;
using run::ModeOverride;
using run::AmpOverride;
using run::OutputCallback;
using run::OutputStream;
using run::RunOverrides;
using run::SourceSpan;
using run::StackFrame;
using run::TraceFrame;
using run::utf8Characters;
using run::Variable;

} // namespace gradstep::python
