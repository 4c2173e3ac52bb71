// The Session's observer on the script's worker thread: feeds the recorder, counts training
// steps, and after each node decides whether to pause (replay target, breakpoint, watchpoint,
// NaN, pause request, command done), in that order.
//
// Steps: step 1 starts with the run. A step ends when an optimizer update finished, or when a
// new top-level gradient call starts after one completed without an update (scripts that only
// compute gradients). The next step begins at the next event, so a pause at the end of a step
// still shows that step's records. SPDX-License-Identifier: MIT
#include "session/session_impl.h"

#include "api/value.h"
#include "autodiff/context.h"
#include "autodiff/node.h"
#include "ops/op_def.h"
#include "python/host/host.h"

#include <algorithm>
#include <cmath>

namespace gradstep::debug {

namespace {

double scalarLoss(const Value* value)
{
    if (!value)
        return std::numeric_limits<double>::quiet_NaN();
    const TensorList leaves = value->leaves();
    if (leaves.empty() || !leaves.front().defined() || leaves.front().numel() != 1)
        return std::numeric_limits<double>::quiet_NaN();
    return leaves.front().item();
}

} // namespace

void SessionObserver::nodeStarted(const NodeEvent& event)
{
    m_impl.beginStepIfNeeded();
    if (m_impl.options.recording != Recording::Off)
        m_impl.recorder.nodeStarted(event);
    m_impl.graphNodeStarted(event);
}

void SessionObserver::nodeFinished(const NodeEvent& event)
{
    m_impl.onNodeFinished(event);
    m_impl.graphNodeFinished(event);
}

void SessionObserver::nodeTangents(const TangentEvent& event)
{
    // Between the node's started and finished events, so the pause at the node shows them.
    if (m_impl.options.recording != Recording::Off)
        m_impl.recorder.nodeTangents(event);
}

void SessionObserver::gradCallStarted(const GradCallEvent& event)
{
    if (event.depth != 0)
        return;
    m_impl.beginStepIfNeeded();
    if (m_impl.w.gradDone) {
        m_impl.endStep(nullptr);
        m_impl.beginStepIfNeeded();
    }
}

void SessionObserver::gradCallFinished(const GradCallEvent& event)
{
    if (event.depth != 0 || !event.completed)
        return;
    WorkerState& w = m_impl.w;
    w.gradDone = true;
    w.loss = scalarLoss(event.value);
    w.weights.assign(event.weights.begin(), event.weights.end());
    w.weightGrads.assign(event.weightGrads.begin(), event.weightGrads.end());
}

void SessionObserver::updateStarted(const UpdateEvent&) { m_impl.beginStepIfNeeded(); }

void SessionObserver::lossScaleReported(const LossScaleEvent& event)
{
    // After the step's gradient call, before its update: the step's summary takes it at the end.
    m_impl.w.lossScale = event;
}

void SessionObserver::updateFinished(const UpdateEvent& event)
{
    m_impl.endStep(&event);
}

void Session::Impl::beginStepIfNeeded()
{
    if (!w.stepEnded)
        return;
    w.stepEnded = false;
    ++w.step;
    w.gradDone = false;
    w.loss = std::numeric_limits<double>::quiet_NaN();
    w.weights.clear();
    w.weightGrads.clear();
    w.lossScale.reset();
    w.previous = nullptr;
    recorder.stepStarted(w.step);
}

void Session::Impl::endStep(const UpdateEvent* update)
{
    if (w.stepEnded || cancelling)
        return;
    std::vector<ParameterState> params;
    for (std::size_t i = 0; i < w.weights.size(); ++i)
        params.push_back({w.weights[i].name(), i < w.weightGrads.size() ? w.weightGrads[i] : Tensor(),
                          w.weights[i]});
    if (update)
        for (const Parameter& p : update->parameters)
            if (std::none_of(params.begin(), params.end(), [&](const ParameterState& s) { return s.name == p.name(); }))
                params.push_back({p.name(), Tensor(), p});
    const StepSummary summary = recorder.stepFinished(
        w.step, w.loss, params, update ? update->learningRate : std::numeric_limits<double>::quiet_NaN(),
        w.lossScale);
    w.stepEnded = true;

    PauseInfo why;
    if (anyPoints && !w.active.replay) {
        std::lock_guard lock(pointsMutex);
        why.watchHits = watchpoints.checkStep(summary);
    }
    if (!why.watchHits.empty()) {
        why.reason = PauseReason::Watchpoint;
        why.message = why.watchHits.front().message;
        const int id = why.watchHits.front().watchpointId;
        for (const Watchpoint& wp : watchpoints.all())
            if (wp.id == id)
                why.condition = wp.toString();
    } else {
        const RunCommand::Kind kind = w.active.command.kind;
        const bool done = !w.active.replay
                          && (kind == RunCommand::Kind::EndOfStep
                              || (kind == RunCommand::Kind::Steps && --w.active.stepsLeft <= 0));
        if (!done)
            return;
        why.reason = PauseReason::Command;
        why.condition = kind == RunCommand::Kind::Steps ? "steps=" + std::to_string(w.active.command.steps)
                                                        : std::string("end of step");
        why.message = "step " + std::to_string(w.step) + " ended, loss "
                      + (std::isnan(w.loss) ? std::string("unknown") : std::to_string(w.loss));
    }
    pauseAt(std::move(why), std::nullopt);
}

RecordPtr Session::Impl::lightRecord(const NodeEvent& event)
{
    auto r = std::make_shared<NodeRecord>();
    r->seq = ++w.lightSeq;
    r->opSeq = event.seq;
    r->step = w.step;
    r->phase = event.phase;
    r->op = event.op ? std::string(event.op->name) : event.node ? event.node->opName() : "Custom";
    r->label = event.op ? std::string(event.op->label) : r->op;
    r->scope = event.scope ? *event.scope : std::string();
    r->fullName = recordFullName(r->phase, r->scope, r->op);
    if (event.graphNode)
        r->graphNode = resolveGraphNode(*event.graphNode);
    r->location = eventLocation(event);
    return r;
}

void Session::Impl::onNodeFinished(const NodeEvent& event)
{
    if (cancelling)
        return;
    RecordPtr r;
    if (options.recording != Recording::Off) {
        recorder.nodeFinished(event);
        r = recorder.lastRecord();
        if (!r || r->seq <= w.lastSeq)
            return; // a finish without its start: nothing was recorded
        w.lastSeq = r->seq;
    } else {
        const bool needed = !continuing || anyPoints || pauseRequested || w.active.replay;
        if (!needed) {
            ++w.nodes;
            return;
        }
        r = lightRecord(event);
    }
    ++w.nodes;
    decide(r);
}

SourceLocation Session::Impl::liveLocation(const NodeRecord& r) const
{
    if (r.phase == Phase::Backward && executionContext().locationProvider)
        return executionContext().locationProvider();
    return r.location;
}

bool Session::Impl::commandDone(const NodeRecord& r)
{
    const PausePoint& from = w.active.from;
    switch (w.active.command.kind) {
    case RunCommand::Kind::StepInto: return true;
    case RunCommand::Kind::StepOver: {
        const SourceLocation here = liveLocation(r);
        if (!here.file || here.line == 0)
            return false;
        if (*here.file == from.file && here.line == from.line)
            return false;
        return python::userFrameDepth(files) <= from.depth;
    }
    case RunCommand::Kind::StepOut:
        if (from.phase == Phase::Forward && from.depth > 1 && r.phase == Phase::Forward)
            return python::userFrameDepth(files) < from.depth;
        return r.phase != from.phase || r.step != from.step;
    case RunCommand::Kind::Continue:
    case RunCommand::Kind::EndOfStep:
    case RunCommand::Kind::Steps: return false;
    }
    return false;
}

} // namespace gradstep::debug
