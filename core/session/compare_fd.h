// compare --what fd: the first step's analytic gradients against float64 central differences of
// the same gradient call, taken in one run. Internal to gradstep_compare. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"
#include "session/compare.h"

namespace gradstep::session {

/// From a StepObserver's gradCallFinished of the first step: fills figures.finiteDifferences
/// (one per gradient of the event, named as figures.params names them), or
/// figures.finiteDifferencesError saying why the call cannot be checked.
void takeFiniteDifferences(const GradCallEvent& event, StepFigures& figures);

/// Runs side `a` once (it must have finiteDifferences set) and makes its analytic gradients side A
/// and its finite differences side B (labelled as `b`), then concludes the comparison.
Comparison compareFiniteDifferences(const CompareSide& a, const CompareSide& b, const CompareOptions& options);

} // namespace gradstep::session
