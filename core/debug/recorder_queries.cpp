// The recorder's settings and queries: everything another thread may call between events. Each
// returns shared pointers to immutable records or copies, under the recorder's mutex.
// SPDX-License-Identifier: MIT
#include "debug/recorder.h"
#include "debug/search.h"

#include <algorithm>

namespace gradstep::debug {

RecorderOptions Recorder::options() const
{
    std::lock_guard lock(m_mutex);
    return m_options;
}

void Recorder::setMemoryCap(std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    m_options.memoryCapBytes = bytes;
    enforceCap();
}

void Recorder::setSnapshotsEnabled(bool enabled)
{
    std::lock_guard lock(m_mutex);
    m_options.snapshots = enabled;
}

void Recorder::setGraphNodeResolver(GraphNodeResolver resolver)
{
    std::lock_guard lock(m_mutex);
    m_graphResolver = std::move(resolver);
}

void Recorder::clear()
{
    std::lock_guard lock(m_mutex);
    m_current = StepData{};
    m_archive.clear();
    m_history.clear();
    m_pending.clear();
    m_snapshotQueue.clear();
    m_snapshotBytes = 0;
    m_known.clear();
    m_firstSeen.clear();
    m_forwardRecordOfOpSeq.clear();
    m_preUpdate.clear();
    m_preUpdateBytes = 0;
    m_nextSeq = 1;
    m_nextExternal = 1;
}

std::int64_t Recorder::currentStep() const
{
    std::lock_guard lock(m_mutex);
    return m_current.step;
}

std::vector<RecordPtr> Recorder::currentRecords() const
{
    std::lock_guard lock(m_mutex);
    return m_current.records;
}

const Recorder::StepData* Recorder::findStep(std::int64_t step) const
{
    if (m_current.step == step)
        return &m_current;
    for (auto it = m_archive.rbegin(); it != m_archive.rend(); ++it)
        if (it->step == step)
            return &*it;
    return nullptr;
}

std::vector<RecordPtr> Recorder::stepRecords(std::int64_t step) const
{
    std::lock_guard lock(m_mutex);
    const StepData* data = findStep(step);
    return data ? data->records : std::vector<RecordPtr>{};
}

RecordPtr Recorder::record(std::uint64_t seq) const
{
    std::lock_guard lock(m_mutex);
    auto found = m_current.index.find(seq);
    if (found != m_current.index.end())
        return m_current.records[found->second];
    for (const StepData& data : m_archive) {
        auto it = data.index.find(seq);
        if (it != data.index.end())
            return data.records[it->second];
    }
    return nullptr;
}

RecordPtr Recorder::lastRecord() const
{
    std::lock_guard lock(m_mutex);
    return m_current.records.empty() ? nullptr : m_current.records.back();
}

std::optional<NodeRecord> Recorder::pending() const
{
    std::lock_guard lock(m_mutex);
    if (m_pending.empty())
        return std::nullopt;
    return m_pending.back().record;
}

std::optional<Tensor> Recorder::snapshot(const TensorId& id) const
{
    std::lock_guard lock(m_mutex);
    std::uint64_t seq = id.node;
    std::size_t slot = id.output;
    const bool output = id.kind == TensorId::Kind::Output;
    if (!output) {
        auto seen = m_firstSeen.find(id);
        if (seen == m_firstSeen.end())
            return std::nullopt;
        std::tie(seq, slot) = seen->second;
    }
    auto found = m_current.index.find(seq);
    if (found == m_current.index.end())
        return std::nullopt;
    const NodeRecord& r = *m_current.records[found->second];
    const std::vector<TensorRecord>& list = output ? r.outputs : r.inputs;
    if (slot >= list.size() || !list[slot].snapshot.defined())
        return std::nullopt;
    return list[slot].snapshot;
}

std::vector<StepSummary> Recorder::history() const
{
    std::lock_guard lock(m_mutex);
    return m_history;
}

DropReport Recorder::dropped() const
{
    std::lock_guard lock(m_mutex);
    return m_current.dropped;
}

std::size_t Recorder::snapshotBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_snapshotBytes;
}

RecordPtr Recorder::firstRecordWhere(const RecordPredicate& pred) const
{
    const std::vector<RecordPtr> records = currentRecords();
    return debug::firstRecordWhere(records, pred);
}

RecordPtr Recorder::completeHistograms(std::uint64_t seq)
{
    std::lock_guard lock(m_mutex);
    auto found = m_current.index.find(seq);
    if (found == m_current.index.end())
        return nullptr;
    RecordPtr& slot = m_current.records[found->second];
    auto missing = [](const TensorRecord& t) { return !t.stats.hasHistogram && t.snapshot.defined(); };
    if (std::none_of(slot->inputs.begin(), slot->inputs.end(), missing)
        && std::none_of(slot->outputs.begin(), slot->outputs.end(), missing))
        return slot;
    auto copy = std::make_shared<NodeRecord>(*slot);
    for (TensorRecord& t : copy->inputs)
        fillHistogram(t.stats, t.snapshot);
    for (TensorRecord& t : copy->outputs)
        fillHistogram(t.stats, t.snapshot);
    slot = std::move(copy);
    return slot;
}

} // namespace gradstep::debug
