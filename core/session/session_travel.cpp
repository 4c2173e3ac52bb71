// Time travel within the current step: the view moves over the recording while the script stays
// paused where it is; a record whose output snapshots the memory cap dropped is re-run to.
// Searches "where did this first happen" over the step's records. SPDX-License-Identifier: MIT
#include "session/session_impl.h"

#include "debug/search.h"
#include "tensor/errors.h"

#include <algorithm>

namespace gradstep::debug {

namespace {

bool outputsDropped(const NodeRecord& r)
{
    return std::any_of(r.outputs.begin(), r.outputs.end(),
                       [](const TensorRecord& t) { return t.snapshotDropped; });
}

} // namespace

bool Session::Impl::showRecord(const RecordPtr& record)
{
    if (!record)
        return false;
    // Histograms are filled when a record is shown; the live one has them already.
    RecordPtr r = record;
    if (RecordPtr completed = recorder.completeHistograms(record->seq))
        r = completed;
    std::shared_ptr<SessionState> shown;
    {
        std::lock_guard lock(mutex);
        if (status != SessionStatus::Paused)
            return false;
        shown = std::make_shared<SessionState>(*liveState);
        shown->node = r;
        shown->timeTravel = !liveState->liveNode || r->seq != liveState->liveNode->seq;
        if (shown->timeTravel) {
            // The live pause's message (a breakpoint, "step into: at ...") is not about this node.
            shown->why.reason = PauseReason::Command;
            shown->why.message = "back at " + r->where() + " (time travel; the script waits at "
                                 + (liveState->liveNode ? liveState->liveNode->where() : std::string("its pause"))
                                 + ")";
            shown->records = recorder.currentRecords();
            std::erase_if(shown->records, [&](const RecordPtr& x) { return x->seq > r->seq; });
            shown->graphs = executedGraphs(shown->records, shown->compiledGraphs, true);
        } else {
            shown->node = liveState->liveNode;
        }
        state = shown;
    }
    changed.notify_all();
    notify(shown);
    return true;
}

bool Session::stepBack()
{
    std::shared_ptr<const SessionState> s = state();
    if (s->status != SessionStatus::Paused || !s->node)
        return false;
    const auto& all = s->records;
    auto it = std::find_if(all.begin(), all.end(), [&](const RecordPtr& r) { return r->seq == s->node->seq; });
    if (it == all.begin() || it == all.end())
        return false;
    return m_impl->showRecord(*(it - 1));
}

bool Session::jumpTo(std::uint64_t seq)
{
    std::shared_ptr<const SessionState> live;
    {
        std::lock_guard lock(m_impl->mutex);
        if (m_impl->status != SessionStatus::Paused)
            return false;
        live = m_impl->liveState;
    }
    auto it = std::find_if(live->records.begin(), live->records.end(),
                           [&](const RecordPtr& r) { return r->seq == seq; });
    if (it == live->records.end())
        return false;
    if (!outputsDropped(**it) || *it == live->liveNode)
        return m_impl->showRecord(*it);
    // Deterministic re-run: same options and seed, silently to the same step and record.
    m_impl->stopAndJoin();
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->status = SessionStatus::Idle;
    }
    ActiveCommand replay;
    replay.replay = true;
    replay.targetStep = live->step;
    replay.targetSeq = seq;
    m_impl->start(replay);
    return true;
}

bool Session::returnToLive()
{
    std::shared_ptr<const SessionState> live;
    {
        std::lock_guard lock(m_impl->mutex);
        live = m_impl->liveState;
    }
    return m_impl->showRecord(live->liveNode);
}

RecordPtr Session::findFirst(const RecordPredicate& predicate) const
{
    const std::vector<RecordPtr> records = m_impl->recorder.currentRecords();
    return firstRecordWhere(records, predicate);
}

RecordPtr Session::findFirst(std::string_view condition) const
{
    const std::vector<RecordPtr> records = m_impl->recorder.currentRecords();
    std::optional<Breakpoint> bp;
    std::string breakpointError;
    try {
        bp = parseBreakpoint(condition);
    } catch (const ValueError& e) {
        breakpointError = e.what();
    }
    if (bp) {
        const NodeRecord* previous = nullptr;
        for (const RecordPtr& r : records) {
            if (matchBreakpoint(*bp, *r, previous))
                return r;
            previous = r.get();
        }
        return nullptr;
    }
    Watchpoint wp;
    try {
        wp = parseWatchpoint(condition);
    } catch (const ValueError& e) {
        throw ValueError("'" + std::string(condition) + "' is neither a breakpoint (" + breakpointError
                         + ") nor a watchpoint (" + e.what() + ")");
    }
    if (wp.kind == Watchpoint::Kind::NanInf) {
        std::optional<NanRootCause> cause = findNanRootCause(records);
        return cause ? cause->record : nullptr;
    }
    return firstRecordWhere(records, [&](const NodeRecord& r) { return !checkRecord(wp, r).empty(); });
}

RecordPtr Session::jumpToFirst(std::string_view condition)
{
    RecordPtr r = findFirst(condition);
    if (r && !jumpTo(r->seq))
        return nullptr;
    return r;
}

} // namespace gradstep::debug
