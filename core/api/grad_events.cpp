// Gradient-function call events. SPDX-License-Identifier: MIT
#include "api/grad_events.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"

#include <memory>
#include <optional>

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
      m_index(++counter().calls), m_depth(counter().depth), m_traced(tracingOps())
{
    ++counter().depth;
    if (m_traced) // compiled: reported on every run of the graph instead (finish)
        return;
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
    if (m_traced)
        reportEveryRun(value, inputGrads, weightGrads);
    else
        emitFinished(true, value, inputGrads, weightGrads, probe);
}

void GradCallScope::fail()
{
    if (!m_traced)
        emitFinished(false, nullptr, {}, {});
}

// Note [Side effects in compiled code] (autodiff/context.h): a gradient call compiled into a
// graph is reported like a PyNative call each time the graph runs, with the run's values, so
// step counting and the loss and gradient charts see compiled steps as they see PyNative ones.
void GradCallScope::reportEveryRun(const Value* value, const TensorList& inputGrads,
                                   const TensorList& weightGrads)
{
    ExecutionContext& ctx = executionContext();
    if (!ctx.stateWriter || m_depth != 0) // nested calls: no step of their own to report
        return;
    TensorList traced = value ? value->leaves() : TensorList();
    const std::size_t valueCount = traced.size();
    traced.insert(traced.end(), inputGrads.begin(), inputGrads.end());
    traced.insert(traced.end(), weightGrads.begin(), weightGrads.end());
    const std::size_t inputCount = inputGrads.size();
    const std::optional<Value> shape = value ? std::optional<Value>(*value) : std::nullopt;
    const std::vector<std::int64_t> positions = m_positions;
    const std::vector<Parameter> weights = m_weights;
    const int depth = m_depth;
    auto started = std::make_shared<std::uint64_t>(0);
    ctx.stateWriter->everyRun(
        [positions, weights, depth, started] {
            *started = ++counter().calls;
            if (ExecutionObserver* observer = executionContext().observer)
                observer->gradCallStarted(makeEvent(*started, depth, positions, weights));
        },
        [positions, weights, depth, started, shape, valueCount,
         inputCount](const TensorList& values) {
            ExecutionObserver* observer = executionContext().observer;
            if (!observer)
                return;
            GradCallEvent event = makeEvent(*started, depth, positions, weights);
            event.completed = true;
            std::optional<Value> result;
            if (shape) {
                std::size_t next = 0;
                result = shape->map([&](const Tensor&) { return values[next++]; });
                event.value = &*result;
            }
            const auto first = values.begin() + static_cast<std::ptrdiff_t>(valueCount);
            const TensorList inputs(first, first + static_cast<std::ptrdiff_t>(inputCount));
            const TensorList grads(first + static_cast<std::ptrdiff_t>(inputCount), values.end());
            event.inputGrads = inputs;
            event.weightGrads = grads;
            observer->gradCallFinished(event);
        },
        traced, EffectTime::WhenComputed);
}

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
