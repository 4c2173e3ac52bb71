// Recorder: the execution observer that turns a step's node events into NodeRecords, keeps full
// snapshots for the current step under a memory cap, stats only for earlier steps, and per-step
// summaries (loss, per-parameter gradient and weight norms) for charts.
//
// Threads: events arrive on the script's worker thread; any other thread may query between
// events. Every member locks one mutex; queries return shared pointers to immutable records or
// copies. Step numbering belongs to the caller (the Session): events before the first
// stepStarted belong to step 0. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"
#include "debug/node_record.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace gradstep::debug {

struct RecorderOptions {
    /// What the recorder keeps of the current step (snapshots, the weights before the update), at
    /// most.
    std::size_t memoryCapBytes = std::size_t{1} << 30;
    bool snapshots = true;                             ///< false: stats only
    std::size_t keptSteps = 64;                        ///< earlier steps whose records stay (stats)
    /// Histograms of each parameter's weight and gradient in the step summaries (a second pass
    /// over every parameter per step); norms and the other stats are always there.
    bool parameterHistograms = true;
};

/// What the Session hands over at the end of a step for each trainable parameter.
struct ParameterState {
    std::string name;
    Tensor gradient; ///< may be undefined
    Tensor weight;   ///< after the update
};

struct ParameterSummary {
    std::string name;
    TensorStats gradient;
    TensorStats weight;
    double gradientNorm = std::numeric_limits<double>::quiet_NaN();
    double weightNorm = std::numeric_limits<double>::quiet_NaN();
    /// relativeChange(weight before the first update op that read it, weight now); NaN when no
    /// update op read the parameter during the step.
    double weightChange = std::numeric_limits<double>::quiet_NaN();
    bool updated = false;
};

/// Snapshots the memory cap removed, oldest first, so the UI can say what is gone.
struct DropReport {
    std::size_t bytes = 0;
    std::size_t snapshots = 0;
    std::vector<std::uint64_t> records; ///< seqs of records that lost at least one snapshot
};

struct StepSummary {
    std::int64_t step = 0;
    bool finished = false;
    double loss = std::numeric_limits<double>::quiet_NaN();
    std::size_t forwardNodes = 0;
    std::size_t backwardNodes = 0;
    std::size_t updateNodes = 0;
    double seconds = 0.0; ///< from stepStarted to stepFinished
    /// The learning rate the step's optimizer update used (its first group's); NaN when no
    /// optimizer reported one.
    double learningRate = std::numeric_limits<double>::quiet_NaN();
    /// The step's loss scaling (TrainOneStepWithLossScaleCell, amp's O2): its scale, the next
    /// step's, whether it overflowed and skipped its update. None when the step scaled no loss.
    std::optional<LossScaleEvent> lossScale;
    std::vector<ParameterSummary> parameters;
    DropReport dropped;
};

using RecordPredicate = std::function<bool(const NodeRecord&)>;
/// Where a node event's op is in the user's code: a recorded backward node carries its forward
/// node's location; a compiled graph's node the statement of the construct it was compiled from
/// (the script is not running those lines); otherwise the innermost user frame running now. The
/// provider may call into the script's interpreter: never call this under a lock it may need.
SourceLocation eventLocation(const NodeEvent& event);

/// Names a NodeEvent::graphNode as a node of a compiled graph (called on the events' thread).
using GraphNodeResolver = std::function<std::optional<GraphNodeRef>(const GraphNode&)>;

class Recorder : public ExecutionObserver {
public:
    explicit Recorder(RecorderOptions options = {});
    ~Recorder() override;
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    void nodeStarted(const NodeEvent& event) override;
    void nodeFinished(const NodeEvent& event) override;
    /// Adds a forward node's tangents (ops.jvp) to its record, snapshots counted against the cap.
    void nodeTangents(const TangentEvent& event) override;

    /// Begins step `step`: the previous step's records keep their stats and lose their snapshots.
    void stepStarted(std::int64_t step);
    /// Closes the step: per-parameter norms and weight change, loss, node counts. The step's
    /// snapshots stay until the next stepStarted. Returns the summary also added to history().
    StepSummary stepFinished(std::int64_t step, double loss, const std::vector<ParameterState>& parameters,
                             double learningRate = std::numeric_limits<double>::quiet_NaN(),
                             std::optional<LossScaleEvent> lossScale = std::nullopt);

    RecorderOptions options() const;
    /// Applies at once: a lower cap drops the oldest snapshots now.
    void setMemoryCap(std::size_t bytes);
    void setSnapshotsEnabled(bool enabled);
    /// Forgets everything (a restart).
    void clear();
    /// Fills NodeRecord::graphNode of graph-mode nodes; null leaves it empty.
    void setGraphNodeResolver(GraphNodeResolver resolver);
    /// Fills NodeRecord::halfPrecision (the overflow watchpoint): each finished node with a
    /// float16 or bfloat16 output holding an inf or a zero is re-run in float32 to tell
    /// (Note [Half-precision overflow]). Off by default; any thread may switch it.
    void setHalfPrecisionChecks(bool enabled) { m_checkHalfPrecision = enabled; }

    std::int64_t currentStep() const;
    std::vector<RecordPtr> currentRecords() const;
    /// The current step's or a kept earlier step's records; empty for unknown steps.
    std::vector<RecordPtr> stepRecords(std::int64_t step) const;
    RecordPtr record(std::uint64_t seq) const;
    RecordPtr lastRecord() const;
    /// The innermost node that started and has not finished (identity and inputs only), to show
    /// a node before it runs: call it from nodeStarted's thread or while the worker is paused
    /// there. A node whose kernel threw stays on the stack until an enclosing node finishes or
    /// the next step starts.
    std::optional<NodeRecord> pending() const;
    /// The current step's snapshot of a tensor: an output, or a Parameter or external tensor as
    /// first seen in the step. nullopt when never taken or dropped.
    std::optional<Tensor> snapshot(const TensorId& id) const;
    /// Finished steps, oldest first.
    std::vector<StepSummary> history() const;
    DropReport dropped() const;
    std::size_t snapshotBytes() const;
    /// Records keep stats without histograms while the script runs (a second pass over every
    /// tensor); this fills them from the snapshots of a current-step record and returns the
    /// completed record (a new pointer; the old one stays valid and unchanged). Tensors without
    /// a snapshot keep hasHistogram false. Null when `seq` is not in the current step.
    RecordPtr completeHistograms(std::uint64_t seq);
    /// The first record of the current step, in execution order, for which pred holds.
    RecordPtr firstRecordWhere(const RecordPredicate& pred) const;

private:
    struct Pending {
        NodeRecord record;
        std::chrono::steady_clock::time_point started;
    };
    struct StepData {
        std::int64_t step = 0;
        std::vector<RecordPtr> records;
        std::unordered_map<std::uint64_t, std::size_t> index; ///< record seq -> position
        std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
        DropReport dropped;
    };
    /// Which list of a record a snapshot sits in.
    enum class Part : std::uint8_t { Input, Output, InputTangent, OutputTangent };
    struct SnapshotRef {
        std::uint64_t record;
        Part part;
        std::size_t slot;
        std::size_t bytes;
    };
    static std::vector<TensorRecord>& partOf(NodeRecord& r, Part part);
    /// A table entry is the tensor it was made for while its storage lives and is still the
    /// impl's storage: the weak pointer keeps the Storage object's address from being reused.
    struct KnownTensor {
        std::weak_ptr<Storage> storage;
        TensorId id;
        bool current(const TensorImpl* impl) const;
    };

    /// The halves of nodeStarted / nodeFinished, under the lock.
    void startRecord(const NodeEvent& event);
    void finishRecord(const NodeEvent& event, SourceLocation location, std::optional<HalfPrecisionIssue> half);
    std::optional<TensorId> knownId(const Tensor& t) const;
    TensorId idFor(const Tensor& t);
    TensorRecord inputRecord(const Tensor& t, Phase phase);
    void fillIdentity(NodeRecord& r, const NodeEvent& event) const;
    void fillOutputs(NodeRecord& r, const NodeEvent& event);
    void publish(NodeRecord&& r);
    bool takeSnapshot(TensorRecord& t, const Tensor& value);
    void keepPreUpdate(const std::string& name, const Tensor& weight);
    /// Drops every snapshot of the step (an allocation failed).
    void releaseSnapshots();
    /// Gives the free pages of the heap back to the system (Note [Returning freed memory between
    /// steps]).
    static void returnFreedMemory();
    void queueSnapshots(const NodeRecord& r);
    void queuePart(std::uint64_t record, const std::vector<TensorRecord>& list, Part part);
    void enforceCap();
    void dropOldest();
    void archiveCurrent();
    const StepData* findStep(std::int64_t step) const;

    mutable std::mutex m_mutex;
    RecorderOptions m_options;
    StepData m_current;
    std::deque<StepData> m_archive;
    std::vector<StepSummary> m_history;
    std::vector<Pending> m_pending;
    std::deque<SnapshotRef> m_snapshotQueue;
    std::size_t m_snapshotBytes = 0;
    std::unordered_map<const TensorImpl*, KnownTensor> m_known;
    /// Where the step first saw each Parameter or external tensor: record seq and input slot.
    std::unordered_map<TensorId, std::pair<std::uint64_t, std::size_t>, TensorIdHash> m_firstSeen;
    std::unordered_map<std::uint64_t, std::uint64_t> m_forwardRecordOfOpSeq;
    /// Each parameter's value before the step's first update op read it (counted in the cap).
    std::unordered_map<std::string, Tensor> m_preUpdate;
    std::size_t m_preUpdateBytes = 0;
    std::uint64_t m_nextSeq = 1;
    std::uint64_t m_nextExternal = 1;
    GraphNodeResolver m_graphResolver;
    std::uint64_t m_pressureToken = 0; ///< tensor/memory_pressure.h
    std::atomic<bool> m_checkHalfPrecision{false};
};

} // namespace gradstep::debug
