// Step events: each call of a gradient function (grad, value_and_grad, GradOperation, and
// TrainOneStepCell's step) is reported to the thread's observer as gradCallStarted /
// gradCallFinished, so the debugger and `gradstep run --steps` can count training steps.
// SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/parameter.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace gradstep {

/// The differentiated function of a gradient call, for an observer that evaluates it again at
/// other points (compare's finite differences): fn's differentiated output (the first with
/// has_aux) summed over its elements, as a function of fn's arguments, and the call's arguments.
/// Evaluating it records nothing.
struct GradCallProbe {
    std::function<double(const std::vector<Value>&)> objective;
    const std::vector<Value>* args = nullptr;
};

/// While gradCallFinished is reported for a grad / value_and_grad / GradOperation call without
/// sens: that call's probe; null at any other time, for TrainOneStepCell steps and sens calls.
const GradCallProbe* currentGradCallProbe();

/// Marks one gradient-function call for its lifetime: the constructor counts the call and emits
/// gradCallStarted; finish() or fail() emits gradCallFinished exactly once. Calls nest (grad of
/// grad): the depth is the number of calls enclosing this one on the thread.
class GradCallScope {
public:
    GradCallScope(std::vector<std::int64_t> positions, std::vector<Parameter> weights);
    ~GradCallScope();
    GradCallScope(const GradCallScope&) = delete;
    GradCallScope& operator=(const GradCallScope&) = delete;

    /// The call returned: `value` is fn's output when the API returns it (else null); `probe`,
    /// when given, is what currentGradCallProbe() gives while the event is reported.
    void finish(const Value* value, const TensorList& inputGrads, const TensorList& weightGrads,
                const GradCallProbe* probe = nullptr);
    /// The call ended with an exception (emits with completed = false).
    void fail();

    std::uint64_t index() const { return m_index; }
    int depth() const { return m_depth; }

private:
    void emitFinished(bool completed, const Value* value, const TensorList& inputGrads,
                      const TensorList& weightGrads, const GradCallProbe* probe = nullptr);

    std::vector<std::int64_t> m_positions;
    std::vector<Parameter> m_weights;
    void reportEveryRun(const Value* value, const TensorList& inputGrads,
                        const TensorList& weightGrads);

    std::uint64_t m_index;
    int m_depth;
    bool m_traced; ///< made while a graph was being compiled
    bool m_finished = false;
};

/// Gradient-function calls running on this thread (0 outside any).
int gradCallDepth();

} // namespace gradstep
