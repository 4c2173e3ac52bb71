// Per-thread execution state. SPDX-License-Identifier: MIT
#include "autodiff/context.h"

#include "autodiff/identity.h"
#include "autodiff/observer.h"

namespace gradstep {

ExecutionContext& executionContext()
{
    thread_local ExecutionContext context;
    return context;
}

void writeState(const Tensor& target, const Tensor& value)
{
    ExecutionContext& ctx = executionContext();
    if (!ctx.tracer) {
        Tensor(target).copyFrom(value);
        return;
    }
    if (!ctx.stateWriter) {
        ++ctx.untraceableCalls;
        throw RuntimeError("state cannot be written inside this traced graph");
    }
    ctx.stateWriter->write(target, value);
}

void hostEffect(const std::function<void()>& effect)
{
    ExecutionContext& ctx = executionContext();
    if (!ctx.tracer) {
        effect();
        return;
    }
    if (!ctx.stateWriter) {
        ++ctx.untraceableCalls;
        throw RuntimeError("a host-side effect cannot be repeated by this traced graph");
    }
    ctx.stateWriter->everyRun(nullptr, [effect](const TensorList&) { effect(); }, {}, EffectTime::AfterRun);
}

bool ExecutionContext::observingNodes() const
{
    return observer && suppressEvents == 0 && observer->wantsNodeEvents();
}

ScopeGuard::ScopeGuard(const std::string& name) : m_saved(executionContext().scope)
{
    auto& ctx = executionContext();
    ctx.scope = std::make_shared<const std::string>(m_saved ? *m_saved + "/" + name : name);
}

ScopeGuard::~ScopeGuard() { executionContext().scope = std::move(m_saved); }

ObserverGuard::ObserverGuard(ExecutionObserver* observer) : m_saved(executionContext().observer)
{
    executionContext().observer = observer;
}

ObserverGuard::~ObserverGuard() { executionContext().observer = m_saved; }

const char* phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return "forward";
    case Phase::Backward: return "backward";
    case Phase::Update: return "update";
    }
    return "forward";
}

std::string SourceLocation::toString() const
{
    if (!file)
        return "<unknown>";
    return *file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

} // namespace gradstep
