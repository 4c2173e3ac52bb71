// Gradient-function call events. SPDX-License-Identifier: MIT
#include "api/grad_events.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"

namespace gradstep {

namespace {

// Per thread, like the rest of the execution state: a script runs on its own worker thread, so
// each run counts its calls from 1.
struct CallCounter {
    std::uint64_t calls = 0;
    int depth = 0;
};

CallCounter& counter()
{
    thread_local CallCounter c;
    return c;
}

thread_local const GradCallProbe* t_probe = nullptr;

GradCallEvent makeEvent(std::uint64_t index, int depth, const std::vector<std::int64_t>& positions,
                        const std::vector<Parameter>& weights)
{
    GradCallEvent event;
    event.index = index;
    event.depth = depth;
    event.positions = positions;
    event.weights = weights;
    return event;
}

} // namespace

GradCallScope::GradCallScope(std::vector<std::int64_t> positions, std::vector<Parameter> weights)
    : m_positions(std::move(positions)), m_weights(std::move(weights)),
      m_index(++counter().calls), m_depth(counter().depth)
{
    ++counter().depth;
    if (ExecutionObserver* observer = executionContext().observer) {
        try {
            observer->gradCallStarted(makeEvent(m_index, m_depth, m_positions, m_weights));
        } catch (...) {
            --counter().depth;
            throw;
        }
    }
}

GradCallScope::~GradCallScope() { --counter().depth; }

const GradCallProbe* currentGradCallProbe() { return t_probe; }

void GradCallScope::finish(const Value* value, const TensorList& inputGrads, const TensorList& weightGrads,
                           const GradCallProbe* probe)
{
    emitFinished(true, value, inputGrads, weightGrads, probe);
}

void GradCallScope::fail() { emitFinished(false, nullptr, {}, {}); }

void GradCallScope::emitFinished(bool completed, const Value* value, const TensorList& inputGrads,
                                 const TensorList& weightGrads, const GradCallProbe* probe)
{
    if (m_finished)
        return;
    m_finished = true;
    ExecutionObserver* observer = executionContext().observer;
    if (!observer)
        return;
    GradCallEvent event = makeEvent(m_index, m_depth, m_positions, m_weights);
    event.completed = completed;
    event.value = value;
    event.inputGrads = inputGrads;
    event.weightGrads = weightGrads;
    // Nested calls inside an observer's probe report their own (or no) probe, then this one's is back.
    const GradCallProbe* saved = t_probe;
    t_probe = probe;
    try {
        observer->gradCallFinished(event);
    } catch (...) {
        t_probe = saved;
        throw;
    }
    t_probe = saved;
}

int gradCallDepth() { return counter().depth; }

} // namespace gradstep
