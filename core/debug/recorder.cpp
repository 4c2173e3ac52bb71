// The recorder. A node becomes a record in two halves: nodeStarted reads the inputs as they are
// before the kernel runs (an in-place update changes them), nodeFinished adds identity, location
// and outputs and publishes the record. Tensors are named by identity: a table from TensorImpl
// address to TensorId, each entry holding a weak pointer to the tensor's storage. It keeps no
// data alive, and an address reused by a new tensor is not mistaken for the old one (the new
// one has another storage; one that shares the old storage holds the same values anyway).
// SPDX-License-Identifier: MIT
#include "debug/recorder.h"

#include "autodiff/context.h"
#include "autodiff/node.h"
#include "graph/graph.h"
#include "ops/op_def.h"
#include "tensor/memory_pressure.h"

#include <algorithm>
#include <cmath>
#include <new>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gradstep::debug {

namespace {

const std::string* parameterName(const Tensor& t)
{
    const std::shared_ptr<Node>& fn = t.gradFn();
    return fn && fn->isLeaf() && !fn->name.empty() ? &fn->name : nullptr;
}

double normOf(const TensorStats& s)
{
    if (s.count == 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (s.nanCount > 0)
        return std::numeric_limits<double>::quiet_NaN();
    return s.infCount() > 0 ? std::numeric_limits<double>::infinity() : s.l2Norm;
}

// Note [Loss-scaled gradients]: a loss-scaled step (TrainOneStepWithLossScaleCell, amp's O2)
// differentiates loss * scale, so its parameters' gradients are the true ones times the scale until
// the update cell divides them. The step's summary (charts, the Gradients table, the exploding /
// vanishing watchpoints) describes the true gradients: it is computed from a copy divided by the
// scale, in float64 so that a float16 gradient loses nothing more; inf and NaN stay what they
// are. The recorded backward nodes keep the values the step computed.
Tensor unscaled(const Tensor& gradient, const std::optional<LossScaleEvent>& lossScale)
{
    if (!gradient.defined() || !lossScale || !(lossScale->lossScale > 0.0) || !std::isfinite(lossScale->lossScale)
        || lossScale->lossScale == 1.0 || !isFloating(gradient.dtype()))
        return gradient;
    std::vector<double> values = gradient.toDoubles();
    for (double& v : values)
        v /= lossScale->lossScale;
    return Tensor::fromVector<double>(gradient.shape(), values);
}

RecordPtr withoutSnapshots(const RecordPtr& r)
{
    if (r->snapshotBytes() == 0)
        return r;
    auto copy = std::make_shared<NodeRecord>(*r);
    for (TensorRecord& t : copy->inputs)
        t.snapshot = Tensor();
    for (TensorRecord& t : copy->outputs)
        t.snapshot = Tensor();
    for (TensorRecord& t : copy->inputTangents)
        t.snapshot = Tensor();
    for (TensorRecord& t : copy->outputTangents)
        t.snapshot = Tensor();
    return copy;
}

} // namespace

namespace {
constexpr std::int64_t kTrimEverySteps = 2;

/// Set while this thread holds a recorder's lock: an allocation failing there is the recorder's
/// own, which it handles itself (and the lock is not recursive).
thread_local int t_insideRecorder = 0;

struct InsideRecorder {
    InsideRecorder() { ++t_insideRecorder; }
    ~InsideRecorder() { --t_insideRecorder; }
    InsideRecorder(const InsideRecorder&) = delete;
    InsideRecorder& operator=(const InsideRecorder&) = delete;
};
} // namespace

Recorder::Recorder(RecorderOptions options) : m_options(options)
{
    // A tensor the script cannot allocate gets the snapshots' memory first (Note [Recording under
    // memory pressure]).
    m_pressureToken = registerMemoryPressureHandler([this] {
        if (t_insideRecorder > 0)
            return false;
        std::lock_guard lock(m_mutex);
        const bool any = !m_snapshotQueue.empty();
        releaseSnapshots();
        return any;
    });
}

Recorder::~Recorder() { unregisterMemoryPressureHandler(m_pressureToken); }

bool Recorder::KnownTensor::current(const TensorImpl* impl) const
{
    const std::shared_ptr<Storage> live = storage.lock();
    return live && live == impl->storage;
}

std::optional<TensorId> Recorder::knownId(const Tensor& t) const
{
    if (const std::string* name = parameterName(t))
        return TensorId::ofParameter(*name);
    auto it = m_known.find(t.impl());
    if (it == m_known.end() || !it->second.current(t.impl()))
        return std::nullopt;
    return it->second.id;
}

TensorId Recorder::idFor(const Tensor& t)
{
    if (std::optional<TensorId> id = knownId(t))
        return *id;
    TensorId id = TensorId::ofExternal(m_nextExternal++);
    m_known[t.impl()] = KnownTensor{t.impl()->storage, id};
    return id;
}

TensorRecord Recorder::inputRecord(const Tensor& t, Phase phase)
{
    TensorRecord in;
    if (!t.defined()) {
        in.defined = false;
        return in;
    }
    in.id = idFor(t);
    if (const std::string* name = parameterName(t)) {
        in.parameter = *name;
        if (phase == Phase::Update && !m_preUpdate.count(*name))
            keepPreUpdate(*name, t);
    }
    if (in.id.kind == TensorId::Kind::Output) {
        auto found = m_current.index.find(in.id.node);
        if (found != m_current.index.end()) {
            const NodeRecord& producer = *m_current.records[found->second];
            if (in.id.output < producer.outputs.size()) {
                in.stats = producer.outputs[in.id.output].stats;
                return in;
            }
        }
    }
    in.stats = computeStats(t, false);
    return in;
}

void Recorder::nodeStarted(const NodeEvent& event)
{
    std::lock_guard lock(m_mutex);
    const InsideRecorder inside;
    try {
        startRecord(event);
    } catch (const std::bad_alloc&) {
        releaseSnapshots(); // this node goes unrecorded (Note [Recording under memory pressure])
    }
}

void Recorder::startRecord(const NodeEvent& event)
{
    Pending p;
    p.record.seq = m_nextSeq++;
    p.record.opSeq = event.seq;
    p.record.phase = event.phase;
    if (event.graphNode && m_graphResolver)
        p.record.graphNode = m_graphResolver(*event.graphNode);
    for (const Tensor& t : event.inputs) {
        p.record.inputs.push_back(inputRecord(t, event.phase));
        TensorRecord& in = p.record.inputs.back();
        if (!in.defined || in.id.kind == TensorId::Kind::Output || m_firstSeen.count(in.id))
            continue;
        m_firstSeen.emplace(in.id, std::make_pair(p.record.seq, p.record.inputs.size() - 1));
        takeSnapshot(in, t);
    }
    p.started = std::chrono::steady_clock::now();
    m_pending.push_back(std::move(p));
}

void Recorder::fillIdentity(NodeRecord& r, const NodeEvent& event) const
{
    r.step = m_current.step;
    if (event.op) {
        r.op = std::string(event.op->name);
        r.label = std::string(event.op->label);
        // Every ops.Custom object runs as the one Custom op: its label names the user's function.
        if (r.op == "Custom" && event.attrs)
            r.label += " " + event.attrs->getString("func_name", "");
    } else {
        r.op = event.node ? event.node->opName() : std::string("Custom");
        r.label = r.op;
    }
    r.scope = event.scope ? *event.scope : std::string();
    r.fullName = recordFullName(r.phase, r.scope, r.op);
    if (event.attrs && !event.attrs->empty())
        r.attrs = event.attrs->toString();
    if (r.phase == Phase::Backward) {
        r.forwardSeq = event.node ? event.node->seq : event.seq;
        auto found = m_forwardRecordOfOpSeq.find(*r.forwardSeq);
        if (found != m_forwardRecordOfOpSeq.end())
            r.forwardRecord = found->second;
    }
    if (event.node && event.node->origin)
        r.originSeq = event.node->origin->seq;
}

void Recorder::fillOutputs(NodeRecord& r, const NodeEvent& event)
{
    for (std::size_t i = 0; i < event.outputs.size(); ++i) {
        const Tensor& t = event.outputs[i];
        TensorRecord out;
        out.id = TensorId::ofOutput(r.seq, static_cast<std::uint32_t>(i));
        if (r.phase == Phase::Backward && event.node && i < event.node->inputs.size()
            && event.node->inputs[i].defined())
            out.gradientOf = knownId(event.node->inputs[i]);
        if (!t.defined()) {
            out.defined = false;
            r.outputs.push_back(std::move(out));
            continue;
        }
        out.stats = computeStats(t, false);
        if (const std::string* name = parameterName(t))
            out.parameter = *name;
        else
            m_known[t.impl()] = KnownTensor{t.impl()->storage, out.id};
        takeSnapshot(out, t);
        r.outputs.push_back(std::move(out));
    }
}

SourceLocation eventLocation(const NodeEvent& event)
{
    if (event.node && event.node->location.known())
        return event.node->location;
    if (event.graphNode && event.graphNode->identity.location.known())
        return event.graphNode->identity.location;
    if (event.phase != Phase::Backward && executionContext().locationProvider)
        return executionContext().locationProvider();
    return {};
}

void Recorder::nodeFinished(const NodeEvent& event)
{
    // The provider may call into the script's interpreter: ask it before taking the lock.
    SourceLocation location = eventLocation(event);
    // The float32 re-run runs ops: outside the lock, which memory pressure may need.
    std::optional<HalfPrecisionIssue> half;
    if (m_checkHalfPrecision)
        try {
            half = findHalfPrecisionIssue(event);
        } catch (const std::exception&) {
            // A node that cannot be re-run (or memory that cannot be had for it) goes unchecked.
        }

    std::lock_guard lock(m_mutex);
    const InsideRecorder inside;
    try {
        finishRecord(event, std::move(location), std::move(half));
    } catch (const std::bad_alloc&) {
        releaseSnapshots(); // this node goes unrecorded (Note [Recording under memory pressure])
    }
}

void Recorder::finishRecord(const NodeEvent& event, SourceLocation location, std::optional<HalfPrecisionIssue> half)
{
    auto match = std::find_if(m_pending.rbegin(), m_pending.rend(), [&](const Pending& p) {
        return p.record.opSeq == event.seq && p.record.phase == event.phase;
    });
    if (match == m_pending.rend())
        return;
    // Anything started after the match never finished: its kernel threw.
    const auto position = std::prev(match.base());
    for (auto it = std::next(position); it != m_pending.end(); ++it)
        std::erase_if(m_firstSeen, [&](const auto& entry) { return entry.second.first == it->record.seq; });
    NodeRecord r = std::move(position->record);
    const auto started = position->started;
    m_pending.erase(position, m_pending.end());

    r.location = std::move(location);
    r.halfPrecision = std::move(half);
    fillIdentity(r, event);
    fillOutputs(r, event);
    // Tangents that came while the node was pending (nodeTangents) name the outputs only now.
    for (std::size_t i = 0; i < r.outputTangents.size() && i < r.outputs.size(); ++i)
        r.outputTangents[i].id = r.outputs[i].id;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (r.phase == Phase::Forward)
        m_forwardRecordOfOpSeq[r.opSeq] = r.seq;
    publish(std::move(r));
}

// A jvp's tangents arrive between the node's started and finished events (ExecutionContext::
// beforeNodeFinished): they go into the pending record and are queued with it when it is
// published. Should they come later, the published record is replaced by a copy holding them, as
// dropOldest replaces one, and their snapshots join the cap's queue then.
void Recorder::nodeTangents(const TangentEvent& event)
{
    std::lock_guard lock(m_mutex);
    const InsideRecorder inside;
    const auto fill = [&](NodeRecord& r) {
        const auto add = [&](std::span<const Tensor> tangents, const std::vector<TensorRecord>& of,
                             std::vector<TensorRecord>& into) {
            into.clear();
            for (std::size_t i = 0; i < tangents.size(); ++i) {
                TensorRecord t;
                if (i < of.size())
                    t.id = of[i].id;
                t.defined = tangents[i].defined();
                if (t.defined) {
                    t.stats = computeStats(tangents[i], false);
                    takeSnapshot(t, tangents[i]);
                }
                into.push_back(std::move(t));
            }
        };
        add(event.inputTangents, r.inputs, r.inputTangents);
        add(event.outputTangents, r.outputs, r.outputTangents);
        r.tangentsByRule = event.byRule;
    };
    try {
        const auto pending = std::find_if(m_pending.rbegin(), m_pending.rend(), [&](const Pending& p) {
            return p.record.opSeq == event.seq && p.record.phase == Phase::Forward;
        });
        if (pending != m_pending.rend()) {
            fill(pending->record);
            return;
        }
        const auto forward = m_forwardRecordOfOpSeq.find(event.seq);
        if (forward == m_forwardRecordOfOpSeq.end())
            return;
        const auto at = m_current.index.find(forward->second);
        if (at == m_current.index.end())
            return;
        auto copy = std::make_shared<NodeRecord>(*m_current.records[at->second]);
        fill(*copy);
        queuePart(copy->seq, copy->inputTangents, Part::InputTangent);
        queuePart(copy->seq, copy->outputTangents, Part::OutputTangent);
        m_current.records[at->second] = std::move(copy);
        enforceCap();
    } catch (const std::bad_alloc&) {
        releaseSnapshots();
    }
}

void Recorder::keepPreUpdate(const std::string& name, const Tensor& weight)
{
    // Counted against the cap like the snapshots (it is recorded memory too). One that does not
    // fit beside the others is not kept: the parameter's weight change is then unknown (NaN).
    const std::size_t bytes = weight.nbytes();
    if (m_preUpdateBytes + bytes > m_options.memoryCapBytes)
        return;
    m_preUpdateBytes += bytes;
    enforceCap();
    try {
        m_preUpdate.emplace(name, weight.clone(StoragePages::Own));
    } catch (const AllocationError&) {
        m_preUpdateBytes -= bytes;
        releaseSnapshots();
    }
}

bool Recorder::takeSnapshot(TensorRecord& t, const Tensor& value)
{
    if (!m_options.snapshots || !value.defined())
        return false;
    auto drop = [&] {
        t.snapshotDropped = true;
        m_current.dropped.bytes += value.nbytes();
        ++m_current.dropped.snapshots;
        return false;
    };
    if (value.nbytes() > m_options.memoryCapBytes)
        return drop(); // larger than the whole cap: dropped before it is taken
    try {
        t.snapshot = value.clone(StoragePages::Own);
    } catch (const AllocationError&) {
        // The script is short of memory: the recording gives back what it holds rather than be
        // the reason the script fails (Note [Recording under memory pressure]).
        releaseSnapshots();
        return drop();
    }
    return true;
}

// Note [Returning freed memory between steps]
// The records the debugger keeps are small and long-lived, allocated between a step's large
// short-lived buffers: glibc cannot shrink its heaps under them, and the holes they leave rarely fit
// the next step's buffers, so freed memory stayed resident and the process grew by tens of MiB per
// step under the debugger while the recording itself stayed under its cap (the same script ran
// flat with glibc's mmap threshold fixed, but 4x slower: every large buffer then faults in fresh
// pages). Between steps, under the debugger only, the free pages inside the heaps go back to the
// system (malloc_trim releases whole free pages of every arena). Every kTrimEverySteps steps: the
// steps after it fault in again the pages their buffers reuse, which doubled a step's time when
// done every step.
void Recorder::returnFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

// Note [Recording under memory pressure]
// Everything the recorder keeps of a step (snapshots, the weights before the update) is counted
// against the memory cap. When memory runs out all snapshots of the step are dropped at once,
// oldest first, as the cap would drop them (time travel re-runs the script to reconstruct what it
// needs): when an allocation of the recorder's own fails, and when one of the script's tensors
// cannot be allocated (the recorder is a memory-pressure handler, tensor/memory_pressure.h, and the
// allocation is tried again). The debugger must never be the reason a script runs out of memory.
void Recorder::releaseSnapshots()
{
    while (!m_snapshotQueue.empty())
        dropOldest();
}

void Recorder::publish(NodeRecord&& r)
{
    auto record = std::make_shared<const NodeRecord>(std::move(r));
    m_current.index.emplace(record->seq, m_current.records.size());
    m_current.records.push_back(record);
    bool tooLarge = false;
    for (const TensorRecord& t : record->inputs)
        tooLarge = tooLarge || t.snapshotDropped;
    for (const TensorRecord& t : record->outputs)
        tooLarge = tooLarge || t.snapshotDropped;
    if (tooLarge)
        m_current.dropped.records.push_back(record->seq);
    queueSnapshots(*record);
    enforceCap();
}

std::vector<TensorRecord>& Recorder::partOf(NodeRecord& r, Part part)
{
    switch (part) {
    case Part::Input: return r.inputs;
    case Part::Output: return r.outputs;
    case Part::InputTangent: return r.inputTangents;
    case Part::OutputTangent: break;
    }
    return r.outputTangents;
}

void Recorder::queuePart(std::uint64_t record, const std::vector<TensorRecord>& list, Part part)
{
    for (std::size_t i = 0; i < list.size(); ++i)
        if (const std::size_t bytes = list[i].snapshotBytes()) {
            m_snapshotQueue.push_back({record, part, i, bytes});
            m_snapshotBytes += bytes;
        }
}

void Recorder::queueSnapshots(const NodeRecord& r)
{
    queuePart(r.seq, r.inputs, Part::Input);
    queuePart(r.seq, r.outputs, Part::Output);
    queuePart(r.seq, r.inputTangents, Part::InputTangent);
    queuePart(r.seq, r.outputTangents, Part::OutputTangent);
}

void Recorder::enforceCap()
{
    while (m_snapshotBytes + m_preUpdateBytes > m_options.memoryCapBytes && !m_snapshotQueue.empty())
        dropOldest();
}

void Recorder::dropOldest()
{
    const SnapshotRef ref = m_snapshotQueue.front();
    m_snapshotQueue.pop_front();
    m_snapshotBytes -= ref.bytes;
    auto found = m_current.index.find(ref.record);
    if (found == m_current.index.end())
        return;
    RecordPtr& slot = m_current.records[found->second];
    auto copy = std::make_shared<NodeRecord>(*slot);
    TensorRecord& t = partOf(*copy, ref.part)[ref.slot];
    t.snapshot = Tensor();
    t.snapshotDropped = true;
    slot = std::move(copy);
    DropReport& report = m_current.dropped;
    report.bytes += ref.bytes;
    ++report.snapshots;
    if (report.records.empty() || report.records.back() != ref.record)
        report.records.push_back(ref.record);
}

void Recorder::archiveCurrent()
{
    if (m_options.keptSteps > 0 && !m_current.records.empty()) {
        StepData archived;
        archived.step = m_current.step;
        archived.index = std::move(m_current.index);
        archived.dropped = std::move(m_current.dropped);
        for (const RecordPtr& r : m_current.records)
            archived.records.push_back(withoutSnapshots(r));
        m_archive.push_back(std::move(archived));
        while (m_archive.size() > m_options.keptSteps)
            m_archive.pop_front();
    }
    m_snapshotQueue.clear();
    m_snapshotBytes = 0;
    m_firstSeen.clear();
    m_forwardRecordOfOpSeq.clear();
    m_preUpdate.clear();
    m_preUpdateBytes = 0;
    m_pending.clear();
    // The key may point at a dead impl here: only the storage can be asked.
    std::erase_if(m_known, [](const auto& entry) { return entry.second.storage.expired(); });
}

void Recorder::stepStarted(std::int64_t step)
{
    {
        std::lock_guard lock(m_mutex);
        archiveCurrent();
        m_current = StepData{};
        m_current.step = step;
    }
    if (step % kTrimEverySteps == 0)
        returnFreedMemory();
}

StepSummary Recorder::stepFinished(std::int64_t step, double loss, const std::vector<ParameterState>& parameters,
                                   double learningRate, std::optional<LossScaleEvent> lossScale)
{
    std::lock_guard lock(m_mutex);
    StepSummary s;
    s.step = step;
    s.finished = true;
    s.loss = loss;
    s.learningRate = learningRate;
    s.lossScale = lossScale;
    for (const RecordPtr& r : m_current.records)
        ++(r->phase == Phase::Forward ? s.forwardNodes
                                      : r->phase == Phase::Backward ? s.backwardNodes : s.updateNodes);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_current.started).count();
    for (const ParameterState& p : parameters) {
        ParameterSummary ps;
        ps.name = p.name;
        ps.gradient = computeStats(unscaled(p.gradient, lossScale), m_options.parameterHistograms);
        if (p.gradient.defined())
            ps.gradient.dtype = p.gradient.dtype();
        ps.weight = computeStats(p.weight, m_options.parameterHistograms);
        ps.gradientNorm = normOf(ps.gradient);
        ps.weightNorm = normOf(ps.weight);
        auto before = m_preUpdate.find(p.name);
        if (before != m_preUpdate.end() && p.weight.defined()) {
            ps.updated = true;
            ps.weightChange = relativeChange(before->second, p.weight);
        }
        s.parameters.push_back(std::move(ps));
    }
    s.dropped = m_current.dropped;
    m_history.push_back(s);
    // Norms stay for every step's charts; full stats only for the kept steps.
    if (m_history.size() > m_options.keptSteps) {
        for (ParameterSummary& ps : m_history[m_history.size() - m_options.keptSteps - 1].parameters) {
            ps.gradient = TensorStats{};
            ps.weight = TensorStats{};
        }
    }
    return s;
}

} // namespace gradstep::debug
