// Deciding to pause after a node, and pausing: the worker publishes a state snapshot, releases
// the GIL and waits for the next command. SPDX-License-Identifier: MIT
#include "session/session_impl.h"

#include "autodiff/context.h"
#include "debug/search.h"
#include "python/host/host.h"
#include "python/host/line_trace.h"

#include <algorithm>

namespace gradstep::debug {

namespace {

std::string watchpointText(const WatchpointSet& set, int id)
{
    for (const Watchpoint& wp : set.all())
        if (wp.id == id)
            return wp.toString();
    return {};
}

/// The nan watchpoint's report: the root cause over the step's records so far.
PauseInfo nanPause(const Recorder& recorder, std::vector<WatchHit> hits, const std::string& condition,
                   std::optional<std::uint64_t>& view)
{
    PauseInfo why;
    why.reason = PauseReason::Nan;
    why.condition = condition;
    why.watchHits = std::move(hits);
    const std::vector<RecordPtr> records = recorder.currentRecords();
    why.nanRootCause = findNanRootCause(records);
    if (why.nanRootCause && why.nanRootCause->record) {
        why.message = why.nanRootCause->message;
        view = why.nanRootCause->record->seq;
    } else {
        why.message = why.watchHits.front().message;
    }
    return why;
}

} // namespace

void Session::Impl::decide(const RecordPtr& r)
{
    python::syncLineTrace(); // a line breakpoint added or removed since the last node
    w.current = r;
    if (w.active.replay) {
        w.previous = r;
        // Past the target (the script changed since): pause at the first node beyond it.
        if (r->step > w.active.targetStep || (r->step == w.active.targetStep && r->seq >= w.active.targetSeq)) {
            PauseInfo why;
            why.reason = PauseReason::Command;
            why.condition = "jump to #" + std::to_string(r->seq);
            why.message = "re-ran the script to " + r->where() + " (its snapshots had been dropped)";
            pauseAt(std::move(why), std::nullopt);
        }
        return;
    }
    PauseInfo why;
    std::optional<std::uint64_t> view;
    if (anyPoints) {
        std::lock_guard lock(pointsMutex);
        const WorkerState::LineArrival& arrival = w.lineArrival;
        const bool sameArrival = arrival.breakpoint && r->location.line == arrival.line && r->location.file
                                 && arrival.file && *r->location.file == *arrival.file;
        if (std::optional<Hit> hit = breakpoints.match(*r, w.previous.get(), sameArrival ? arrival.breakpoint : 0)) {
            why.reason = PauseReason::Breakpoint;
            if (const Breakpoint* bp = breakpoints.find(hit->breakpointId))
                why.condition = bp->toString();
            why.message = "breakpoint " + std::to_string(hit->breakpointId) + ": " + hit->message;
            why.breakpoint = std::move(hit);
        } else if (std::vector<WatchHit> hits = watchpoints.check(*r); !hits.empty()) {
            auto nan = std::find_if(hits.begin(), hits.end(),
                                    [](const WatchHit& h) { return h.kind == Watchpoint::Kind::NanInf; });
            if (nan != hits.end() && w.nanQuietStep != w.step) {
                w.nanQuietStep = w.step;
                const std::string condition = watchpointText(watchpoints, nan->watchpointId);
                why = nanPause(recorder, std::move(hits), condition, view);
            } else {
                // The nan watchpoint pauses once per step (at the root cause); the other kinds
                // of this node still pause. Several NaN hits at one node leave none of them.
                std::erase_if(hits, [](const WatchHit& h) { return h.kind == Watchpoint::Kind::NanInf; });
                if (!hits.empty()) {
                    why.reason = PauseReason::Watchpoint;
                    why.condition = watchpointText(watchpoints, hits.front().watchpointId);
                    why.message = hits.front().message;
                    why.watchHits = std::move(hits);
                }
            }
        }
    }
    if (why.reason == PauseReason::None && pauseRequested.exchange(false)) {
        why.reason = PauseReason::Pause;
        why.condition = "pause";
        why.message = "paused at " + r->where();
    }
    if (why.reason == PauseReason::None && commandDone(*r)) {
        why.reason = PauseReason::Command;
        why.condition = runCommandName(w.active.command.kind);
        why.message = std::string(runCommandName(w.active.command.kind)) + ": at " + r->where();
    }
    w.previous = r;
    if (why.reason != PauseReason::None)
        pauseAt(std::move(why), view);
}

void Session::Impl::onLine(const std::shared_ptr<const std::string>& file, int line, const void* frame)
{
    if (w.active.replay || cancelling)
        return;
    if (frame == w.lineArrival.frame)
        w.lineArrival = {};
    PauseInfo why;
    {
        std::lock_guard lock(pointsMutex);
        std::optional<Hit> hit = breakpoints.matchLine(*file, line);
        if (!hit)
            return;
        if (const Breakpoint* bp = breakpoints.find(hit->breakpointId))
            why.condition = bp->toString();
        w.lineArrival = {frame, file, line, hit->breakpointId};
        why.reason = PauseReason::Breakpoint;
        why.message = "breakpoint " + std::to_string(hit->breakpointId) + ": " + hit->message;
        why.breakpoint = std::move(hit);
    }
    SourceLocation at;
    at.file = file;
    at.line = line;
    pauseAt(std::move(why), std::nullopt, at);
    python::syncLineTrace();
}

bool SessionLines::wantsLines() const
{
    return m_impl.anyLinePoints;
}

void SessionLines::lineReached(const std::shared_ptr<const std::string>& file, int line, const void* frame)
{
    m_impl.onLine(file, line, frame);
}

void SessionLines::lineTraceDisplaced()
{
    m_impl.lineTraceDisplaced = true;
}

std::shared_ptr<SessionState> Session::Impl::buildState(SessionStatus s, PauseInfo why) const
{
    auto state = std::make_shared<SessionState>();
    state->status = s;
    state->why = std::move(why);
    state->step = w.step;
    state->node = w.current;
    state->liveNode = w.current;
    state->records = recorder.currentRecords();
    for (std::size_t i = 0; i < w.weights.size(); ++i) {
        ParameterGradient g;
        g.name = w.weights[i].name();
        if (i < w.weightGrads.size() && w.weightGrads[i].defined()) {
            g.gradient = w.weightGrads[i];
            g.stats = computeStats(g.gradient);
        }
        if (w.weights[i].defined())
            g.weightNorm = computeStats(w.weights[i], false).l2Norm;
        state->gradients.push_back(std::move(g));
    }
    state->loss = w.loss;
    state->history = recorder.history();
    state->dropped = recorder.dropped();
    state->nodesExecuted = w.nodes;
    state->compiledGraphs = w.compiled;
    // After a step ended (or the run did) the last node is done, not current.
    const bool atNode = s == SessionStatus::Paused && !w.stepEnded;
    state->graphs = executedGraphs(state->records, state->compiledGraphs, atNode);
    return state;
}

void Session::Impl::pauseAt(PauseInfo why, std::optional<std::uint64_t> view, std::optional<SourceLocation> line)
{
    PausePoint here;
    if (line && line->file) {
        here.file = *line->file;
        here.line = line->line;
    } else if (w.current) {
        if (const SourceLocation at = liveLocation(*w.current); at.file) {
            here.file = *at.file;
            here.line = at.line;
        }
    }
    here.depth = python::userFrameDepth(files);
    here.phase = w.current ? w.current->phase : Phase::Forward;
    here.step = w.step;

    if (w.current)
        if (RecordPtr completed = recorder.completeHistograms(w.current->seq))
            w.current = completed;
    auto live = buildState(SessionStatus::Paused, std::move(why));
    live->userDepth = here.depth;
    live->line = std::move(line);
    {
        // Reading variables calls repr(), which may run ops: they must not reach us.
        ObserverGuard quiet(nullptr);
        live->stack = runner.userStack();
    }
    std::shared_ptr<const SessionState> shown = live;
    if (view && (!w.current || *view != w.current->seq))
        if (RecordPtr r = recorder.completeHistograms(*view)) {
            auto travelled = std::make_shared<SessionState>(*live);
            travelled->node = r;
            travelled->timeTravel = true;
            travelled->records = recorder.currentRecords();
            std::erase_if(travelled->records, [&](const RecordPtr& x) { return x->seq > r->seq; });
            travelled->graphs = executedGraphs(travelled->records, travelled->compiledGraphs, true);
            shown = travelled;
        }
    {
        std::lock_guard lock(mutex);
        status = SessionStatus::Paused;
        liveState = live;
        state = shown;
        next.reset();
        pauseRequested = false;
    }
    changed.notify_all();

    python::GilRelease release;
    notify(shown);
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return next.has_value() || cancelling; });
    if (cancelling)
        return;
    w.active = *next;
    w.active.from = here;
    w.active.stepsLeft = w.active.command.steps;
    next.reset();
    continuing = w.active.command.kind == RunCommand::Kind::Continue && !w.active.replay;
}

} // namespace gradstep::debug
