// Runs a graph node by node in topological order through the op kernels, emitting the same
// ExecutionObserver events as PyNative so the debugger can step through a compiled graph.
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"
#include "graph/parallel_choice.h"
#include "graph/parallel_groups.h"

#include <exception>
#include <functional>
#include <memory>

namespace gradstep {

class FusedKernel;
class Storage;

/// Note [Graph execution events]: each node reports started/finished with its inputs, outputs,
/// phase, scope and graph node. A fused node reports itself and, inside that pair, each member
/// (then run one by one so every member's value exists); If and While report themselves around
/// the nodes of the subgraphs they run (a While's cond and body nodes once per iteration); a
/// WhileGrad reports its gradient graph's nodes once per iteration, not its forward replay; a
/// CustomBprop reports its construct's nodes. With no observer attached, fused nodes run their
/// one-loop kernel and values with a memory-plan slot (buffer_reuse) share that slot's storage;
/// with an observer the plan is ignored, so tensors an observer keeps are never overwritten.
/// Without an observer, the nodes of a parallel group (nodeGroups) run at once on the
/// inter-op pool (Note [Inter-op parallelism]) when that is measured to be faster (Note
/// [Measured parallelism]); with one, every node runs in graph order.
/// Note [Random ops in compiled graphs]: a random op's seed is fixed when the graph is traced, yet
/// MindSpore's random kernels keep their generator between launches, so every call of a compiled
/// function draws anew (a Dropout mask differs per step, as in PyNative). Run k > 1 of an executor
/// therefore runs each random op with its traced seed mixed with k; the first run uses the traced
/// seed itself. Events report the seed actually used. The gradient reads the mask the forward
/// node produced in the same run, so forward and backward always agree.
/// Called during GraphExecutor::run as soon as the graph outputs `outputs` (indices into the
/// graph's outputs) have all been computed, with their values.
struct OutputsReady {
    std::vector<std::size_t> outputs;
    std::function<void(const TensorList&)> reached;
};

class GraphExecutor {
public:
    explicit GraphExecutor(Graph graph);
    ~GraphExecutor();
    GraphExecutor(const GraphExecutor&) = delete;
    GraphExecutor& operator=(const GraphExecutor&) = delete;

    /// One tensor per graph input (arguments and parameters, in input order); returns one tensor
    /// per graph output. Inputs must match the input specs exactly. Each of `ready` is called in
    /// the run right after the last node its outputs need (before the first node when they are
    /// inputs or constants), so an observer sees it among the node events where it belongs.
    TensorList run(std::span<const Tensor> inputs, std::span<const OutputsReady> ready = {});
    const Graph& graph() const { return m_graph; }

private:
    void prepare();
    void runNode(const GraphNode& node, bool observed);
    /// Runs a parallel group's nodes at once; results and errors as if run one by one.
    void runGroup(std::size_t group);
    void runOp(const GraphNode& node, std::span<const Tensor> inputs, bool observed);
    void allocateOutputs(const GraphNode& node, OutputList& outputs, bool observed);
    void storeOutputs(const GraphNode& node, std::span<const Tensor> outputs);
    void runIf(const GraphNode& node, std::span<const Tensor> inputs);
    void runWhile(const GraphNode& node, std::span<const Tensor> inputs);
    void runWhileGrad(const GraphNode& node, std::span<const Tensor> inputs);
    void runCustomBprop(const GraphNode& node, std::span<const Tensor> inputs);
    /// Runs a While (or WhileGrad) node's loop from `carried`; `trajectory` (when given) gets the
    /// carried values each iteration started from.
    TensorList loop(const GraphNode& node, TensorList carried, std::vector<TensorList>* trajectory);
    void runFused(const GraphNode& node, std::span<const Tensor> inputs, bool observed);
    Tensor allocate(ValueId id, bool observed);
    void checkInputs(std::span<const Tensor> inputs) const;
    /// The attributes a node runs with this time: its own, except a random op's seed on later runs.
    const Attrs& attrsOf(const GraphNode& node) const;
    void drawSeeds();
    /// The value of graph output `index` as run() returns it.
    Tensor outputValue(std::size_t index) const;
    GraphExecutor& subExecutor(const GraphNode& node, std::size_t which);

    Graph m_graph;
    std::vector<std::uint32_t> m_lastUse; ///< per value: index of the last node using it
    std::vector<NodeGroup> m_groups;
    std::vector<std::vector<NodeId>> m_groupOrder; ///< per group: its nodes, costliest first
    std::vector<ParallelChoice> m_groupChoice;     ///< per group: at once or one by one
    std::vector<TensorList> m_groupInputs;         ///< per node of the running group
    std::vector<OutputList> m_groupOutputs;
    std::vector<std::exception_ptr> m_groupErrors;
    std::vector<std::vector<std::unique_ptr<GraphExecutor>>> m_subExecutors; ///< per node
    std::vector<std::unique_ptr<FusedKernel>> m_fusedKernels;                ///< per node
    std::vector<std::int64_t> m_slotBytes; ///< per memory-plan slot
    std::vector<std::shared_ptr<Storage>> m_slots;
    std::vector<Tensor> m_values;
    std::vector<Tensor> m_scratchInputs;
    std::uint64_t m_runs = 0;            ///< run() calls so far, this one included
    std::vector<Attrs> m_drawAttrs;      ///< per node: a random op's attributes for this run
};

/// Runs a graph once (a GraphExecutor built for one run).
TensorList executeGraph(const Graph& graph, std::span<const Tensor> inputs);

} // namespace gradstep
