// What the debugger keeps of one executed node: identity, location, the tensors it consumed and
// produced (as ids, stats and optional snapshots). Records are immutable once published; the
// recorder replaces a record by an edited copy when it drops a snapshot.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "debug/half_precision_check.h"
#include "debug/tensor_stats.h"

#include <compare>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::debug {

/// Names a tensor across the records of a recorder. Outputs of recorded nodes are
/// {record seq, output index}; Parameters are named; any other tensor a node consumed without a
/// recorded producer (data, a constant, a gradient summed inside the engine) gets a number of
/// its own the first time it is seen, stable while the tensor lives.
struct TensorId {
    enum class Kind : std::uint8_t { Output, Parameter, External };

    Kind kind = Kind::Output;
    std::uint64_t node = 0;   ///< Output: the producing record's seq; External: its number
    std::uint32_t output = 0; ///< Output: the output index
    std::string name;         ///< Parameter: its name

    static TensorId ofOutput(std::uint64_t recordSeq, std::uint32_t index);
    static TensorId ofParameter(std::string name);
    static TensorId ofExternal(std::uint64_t number);

    /// "#12:0", "param:conv1.weight", "ext:3".
    std::string toString() const;

    friend bool operator==(const TensorId&, const TensorId&) = default;
    friend auto operator<=>(const TensorId&, const TensorId&) = default;
};

struct TensorIdHash {
    std::size_t operator()(const TensorId& id) const;
};

/// One input or output of a node. Inputs carry their stats as the node saw them; an output's
/// snapshot is a deep copy taken when the node finished (undefined when none was taken or it was
/// dropped; `snapshotDropped` tells the two apart).
struct TensorRecord {
    TensorId id;
    bool defined = true;            ///< false for the absent gradient of a non-differentiable input
    TensorStats stats;
    Tensor snapshot;
    bool snapshotDropped = false;
    std::string parameter;          ///< the Parameter this tensor is (an in-place update's output)
    /// Backward outputs: the forward tensor this is the gradient of (the forward node's input).
    std::optional<TensorId> gradientOf;

    std::size_t snapshotBytes() const { return snapshot.defined() ? snapshot.nbytes() : 0; }
};

/// Graph mode: which node of which compiled graph a record ran as. `graph` numbers the run's
/// compilations from 1 (GraphCompileEvent order); `inside` marks a node that ran inside graph node
/// `node` (an If branch, a While body, a fused node's members) rather than that node itself.
struct GraphNodeRef {
    std::uint64_t graph = 0;
    std::uint32_t node = 0;
    bool inside = false;

    friend bool operator==(const GraphNodeRef&, const GraphNodeRef&) = default;
};

struct NodeRecord {
    std::uint64_t seq = 0;        ///< the recorder's number, unique, increasing in execution order
    std::uint64_t opSeq = 0;      ///< the core's NodeEvent::seq (the "#12" of tape dumps)
    std::int64_t step = 0;
    Phase phase = Phase::Forward;
    std::string op;               ///< "Conv2D"; custom nodes: their name ("CustomBprop")
    std::string label;            ///< the op's display label ("conv2d")
    std::string scope;            ///< "LeNet5/conv1"
    /// "LeNet5/conv1/Conv2D"; backward nodes "Gradients/LeNet5/conv1/Conv2D", as MindSpore names
    /// the nodes of the gradient graph.
    std::string fullName;
    SourceLocation location;      ///< backward nodes: the location of the forward node
    std::string attrs;            ///< the attributes as text, "{axis: 1}"
    /// Backward nodes: the core seq of the forward node they differentiate, and the seq of that
    /// node's forward record when the recorder saw it.
    std::optional<std::uint64_t> forwardSeq;
    std::optional<std::uint64_t> forwardRecord;
    /// Nodes recorded while a backward rule ran (higher order): the forward node of that rule.
    std::optional<std::uint64_t> originSeq;
    std::optional<GraphNodeRef> graphNode; ///< graph mode, when the recorder's resolver knew it
    std::vector<TensorRecord> inputs;  ///< backward: the gradients flowing in, one per output
    std::vector<TensorRecord> outputs; ///< backward: the input gradients produced
    /// Forward mode (ops.jvp, Note [Forward-mode rules]): the tangent of each input and each
    /// output, with the ids of the tensors they belong to (undefined: zero). Empty when no
    /// tangent reached the node.
    std::vector<TensorRecord> inputTangents;
    std::vector<TensorRecord> outputTangents;
    bool tangentsByRule = true; ///< false: the op's double vjp gave them (it has no rule)
    double seconds = 0.0;         ///< wall time from the node's start event to its finish event
    /// A half-precision output that overflowed or underflowed where float32 would not have,
    /// when the recorder was asked to check (Recorder::setHalfPrecisionChecks).
    std::optional<HalfPrecisionIssue> halfPrecision;

    bool hasTangents() const { return !outputTangents.empty(); }
    bool allInputsFinite() const;
    bool anyOutputNonFinite() const;
    /// "file.py:27", or "" when the location is unknown.
    std::string locationText() const;
    /// "LeNet5/conv1/Conv2D (main.py:27)", "backward of LeNet5/conv1/Conv2D (main.py:27)".
    std::string where() const;
    std::size_t snapshotBytes() const;
};

using RecordPtr = std::shared_ptr<const NodeRecord>;

/// NodeRecord::fullName. Backward nodes of a compiled gradient graph carry a "Gradients" scope
/// already (graph autodiff names them so); others get the prefix here.
std::string recordFullName(Phase phase, const std::string& scope, const std::string& op);

/// "main.py:27" (base name of the file, line; column when known), "" when unknown.
std::string shortLocation(const SourceLocation& location);

} // namespace gradstep::debug
