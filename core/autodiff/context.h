// Per-thread execution state: active tapes, phase, Cell scope, observer, source locations.
// A script runs on one worker thread; each thread has its own state. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "ops/op_def.h"

#include <functional>
#include <span>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gradstep {

class Tape;
class Node;
class ExecutionObserver;

/// Receives every op call instead of running it while installed: graph mode traces backward
/// rules (and C++ functions) into graph nodes over symbolic tensors this way (core/graph/tracer.h).
class OpTracer {
public:
    virtual ~OpTracer() = default;
    virtual OutputList traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs) = 0;
};

/// When a compiled run's effect gets its values: after the run, once the state is written back, or
/// as soon as the graph has computed them, in the middle of the run (a gradient call's report, so
/// that the debugger shows the step's gradients while it pauses at the update's nodes, as it does
/// in PyNative).
enum class EffectTime { AfterRun, WhenComputed };

/// Note [Side effects in compiled code]: while graph mode compiles a function, writes to state (a
/// Parameter, an optimizer's moment buffer) do not happen; they go here and become the graph's
/// state outputs, copied into the state after each run, and host-side counters (an optimizer's
/// global step) register an effect repeated on every run (python/jit/jit_state.cpp).
class StateWriter {
public:
    virtual ~StateWriter() = default;
    /// From now on, reads of `target` in the graph see `value`; the run writes it back.
    virtual void write(const Tensor& target, const Tensor& value) = 0;
    /// Not now but on every run of the graph being compiled: `before` ahead of the run, `after`
    /// with the run's values of `traced` (tensors of the graph being built) at `time`. Either
    /// may be empty.
    virtual void everyRun(std::function<void()> before,
                          std::function<void(const TensorList& values)> after,
                          const TensorList& traced, EffectTime time) = 0;
};

struct ExecutionContext {
    std::vector<Tape*> tapes;            ///< innermost last; every active tape records each op
    int noGradDepth = 0;                 ///< > 0: nothing is recorded
    int suppressEvents = 0;              ///< > 0 inside a backward rule: primitive ops emit no events
    Phase phase = Phase::Forward;
    std::shared_ptr<const std::string> scope; ///< current Cell scope path, null at top level
    ExecutionObserver* observer = nullptr;
    std::function<SourceLocation()> locationProvider;
    std::shared_ptr<Node> backwardOrigin; ///< forward node whose rule is running, for nodes it records
    OpTracer* tracer = nullptr;           ///< non-null: ops become graph nodes and do not run
    StateWriter* stateWriter = nullptr;   ///< set while graph mode compiles (see StateWriter)
    std::uint64_t nextSeq = 1;
    /// Calls a graph cannot hold, made while an op tracer was installed: a gradient function, or
    /// an op whose output shape depends on its input's values (Unique, MaskedSelect, NonZero).
    /// Graph mode then runs the function being compiled in Python instead (Note [Gradients
    /// inside compiled code]).
    std::uint64_t untraceableCalls = 0;
    /// The compute dtype of the innermost Cell that has one (Cell.to_float): every op called in
    /// the forward phase gets its float inputs cast to it first (Note [Mixed precision] in
    /// ops/dispatch.cpp). Unset outside such Cells.
    std::optional<DType> mixedPrecision;
    /// Called by callOp between an observed op's kernel and its nodeFinished event, with the
    /// event's seq: forward mode computes the node's tangents there, so that a debugger pausing
    /// at the finished node already has them (core/api/jvp_tracer.cpp).
    std::function<void(std::uint64_t seq, const OpCall& call, std::span<const Tensor> outputs)> beforeNodeFinished;

    bool recording() const { return !tapes.empty() && noGradDepth == 0; }
    /// An observer is attached, wants node events and events are not suppressed.
    bool observingNodes() const;
};

ExecutionContext& executionContext();

/// Whether ops are traced into a graph now (they do not run).
inline bool tracingOps() { return executionContext().tracer != nullptr; }
/// target <- value in place: now, or, while an op tracer is installed, as a write of the graph
/// being compiled (StateWriter); RuntimeError (an untraceable call) when the tracer has no writer.
void writeState(const Tensor& target, const Tensor& value);
/// effect() now, or after every run of the graph being compiled.
void hostEffect(const std::function<void()>& effect);

/// Pushes a Cell scope ("conv1" under "LeNet5" gives "LeNet5/conv1") for the guard's lifetime.
class ScopeGuard {
public:
    explicit ScopeGuard(const std::string& name);
    ~ScopeGuard();
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;

private:
    std::shared_ptr<const std::string> m_saved;
};

/// Makes `dtype` the mixed-precision type for the guard's lifetime when it is set; an unset one
/// keeps the enclosing Cell's (MindSpore: a Cell without to_float runs in its parent's type).
class MixedPrecisionGuard {
public:
    explicit MixedPrecisionGuard(std::optional<DType> dtype) : m_saved(executionContext().mixedPrecision)
    {
        if (dtype)
            executionContext().mixedPrecision = dtype;
    }
    ~MixedPrecisionGuard() { executionContext().mixedPrecision = m_saved; }
    MixedPrecisionGuard(const MixedPrecisionGuard&) = delete;
    MixedPrecisionGuard& operator=(const MixedPrecisionGuard&) = delete;

private:
    std::optional<DType> m_saved;
};

/// Disables recording for the guard's lifetime (MindSpore's no-grad regions, optimizer updates).
class NoGradGuard {
public:
    NoGradGuard() { ++executionContext().noGradDepth; }
    ~NoGradGuard() { --executionContext().noGradDepth; }
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;
};

class PhaseGuard {
public:
    explicit PhaseGuard(Phase phase) : m_saved(executionContext().phase) { executionContext().phase = phase; }
    ~PhaseGuard() { executionContext().phase = m_saved; }
    PhaseGuard(const PhaseGuard&) = delete;
    PhaseGuard& operator=(const PhaseGuard&) = delete;

private:
    Phase m_saved;
};

/// Attaches an observer to this thread for the guard's lifetime.
class ObserverGuard {
public:
    explicit ObserverGuard(ExecutionObserver* observer);
    ~ObserverGuard();
    ObserverGuard(const ObserverGuard&) = delete;
    ObserverGuard& operator=(const ObserverGuard&) = delete;

private:
    ExecutionObserver* m_saved;
};

} // namespace gradstep
