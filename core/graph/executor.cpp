// The graph executor (see executor.h and Note [Graph execution events]). SPDX-License-Identifier:
// MIT
#include "graph/executor.h"

#include "random/splitmix.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "graph/fused_kernel.h"
#include "graph/inter_op_pool.h"
#include "ops/compute_dtype.h"
#include "profile/op_timer.h"
#include "tensor/located_error.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace gradstep {

namespace {

constexpr std::uint32_t kKeep = 0xffffffffu;
/// A callback of run(): already called.
constexpr std::int64_t kFired = std::numeric_limits<std::int64_t>::max();

// Started and finished events of one graph node, sharing one sequence number.
class NodeEvents {
public:
    NodeEvents(const GraphNode& node, std::span<const Tensor> inputs, const Attrs* attrs = nullptr)
        : m_ctx(executionContext()), m_node(node), m_attrs(attrs ? *attrs : node.attrs), m_inputs(inputs),
          m_active(m_ctx.observingNodes())
    {
        if (!m_active)
            return;
        m_seq = m_ctx.nextSeq++;
        m_ctx.observer->nodeStarted(event({}));
    }
    void finished(std::span<const Tensor> outputs)
    {
        if (m_active)
            m_ctx.observer->nodeFinished(event(outputs));
    }

private:
    NodeEvent event(std::span<const Tensor> outputs) const
    {
        const std::string* scope = m_node.identity.scope.empty() ? nullptr : &m_node.identity.scope;
        return NodeEvent{m_seq,  m_node.identity.phase, m_node.op, nullptr,
                         scope,  &m_attrs,              m_inputs,  outputs,
                         &m_node};
    }

    ExecutionContext& m_ctx;
    const GraphNode& m_node;
    const Attrs& m_attrs;
    std::span<const Tensor> m_inputs;
    bool m_active; ///< decided once, so a started event always gets its finished one
    std::uint64_t m_seq = 0;
};

} // namespace

GraphExecutor::GraphExecutor(Graph graph) : m_graph(std::move(graph)) { prepare(); }

GraphExecutor::~GraphExecutor() = default;

void GraphExecutor::prepare()
{
    const auto& values = m_graph.values();
    const auto& nodes = m_graph.nodes();
    m_lastUse.assign(values.size(), 0);
    for (const GraphNode& node : nodes)
        for (ValueId in : node.inputs)
            m_lastUse[in] = node.id;
    for (ValueId out : m_graph.outputs())
        m_lastUse[out] = kKeep;
    m_subExecutors.resize(nodes.size());
    m_fusedKernels.resize(nodes.size());
    m_drawAttrs.resize(nodes.size());
    for (const GraphNode& node : nodes) {
        m_subExecutors[node.id].resize(node.subgraphs.size());
        if (node.kind == NodeKind::Fused)
            m_fusedKernels[node.id] = std::make_unique<FusedKernel>(*node.subgraphs[0]);
    }
    for (const GraphValue& v : values) {
        if (v.buffer < 0)
            continue;
        const auto slot = static_cast<std::size_t>(v.buffer);
        if (m_slotBytes.size() <= slot)
            m_slotBytes.resize(slot + 1, 0);
        m_slotBytes[slot] = std::max(m_slotBytes[slot], v.bytes());
    }
    m_slots.resize(m_slotBytes.size());
    m_groups = nodeGroups(m_graph);
    m_groupOrder.resize(m_groups.size());
    m_groupChoice.resize(m_groups.size());
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        if (!m_groups[g].parallel)
            continue;
        auto& order = m_groupOrder[g];
        for (NodeId id = m_groups[g].begin; id < m_groups[g].end; ++id)
            order.push_back(id);
        std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
            return nodeWork(m_graph, nodes[a]) > nodeWork(m_graph, nodes[b]);
        });
    }
}

GraphExecutor& GraphExecutor::subExecutor(const GraphNode& node, std::size_t which)
{
    auto& slot = m_subExecutors[node.id][which];
    if (!slot)
        slot = std::make_unique<GraphExecutor>(*node.subgraphs[which]);
    return *slot;
}

void GraphExecutor::checkInputs(std::span<const Tensor> inputs) const
{
    const auto& ids = m_graph.inputs();
    if (inputs.size() != ids.size())
        throw TypeError("graph '" + m_graph.name() + "' takes " + std::to_string(ids.size())
                        + " inputs, got " + std::to_string(inputs.size()));
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const GraphValue& v = m_graph.value(ids[i]);
        if (!inputs[i].defined())
            throw TypeError("graph '" + m_graph.name() + "' input " + std::to_string(i) + " '"
                            + v.name + "' is not a tensor");
        if (!(inputs[i].shape() == v.spec.shape) || inputs[i].dtype() != v.spec.dtype)
            throw ShapeError("graph '" + m_graph.name() + "' input " + std::to_string(i) + " '"
                             + v.name + "' expects " + specToString(v.spec) + ", got "
                             + specToString({inputs[i].shape(), inputs[i].dtype()}));
    }
}

void GraphExecutor::drawSeeds()
{
    for (const GraphNode& node : m_graph.nodes()) {
        if (node.kind != NodeKind::Op || !node.op->random)
            continue;
        Attrs& attrs = m_drawAttrs[node.id];
        attrs = node.attrs;
        const auto traced = static_cast<std::uint64_t>(node.attrs.getInt("seed", 0));
        // Kernels take the seed as a non-negative int64.
        attrs.set("seed", static_cast<std::int64_t>(splitMix64(traced + m_runs * 0x9E3779B97F4A7C15ull) >> 1));
    }
}

const Attrs& GraphExecutor::attrsOf(const GraphNode& node) const
{
    return m_runs > 1 && node.kind == NodeKind::Op && node.op->random ? m_drawAttrs[node.id] : node.attrs;
}

TensorList GraphExecutor::run(std::span<const Tensor> inputs, std::span<const OutputsReady> ready)
{
    checkInputs(inputs);
    if (++m_runs > 1)
        drawSeeds();
    const ExecutionContext& ctx = executionContext();
    const bool observed = ctx.observingNodes();
    m_values.assign(m_graph.values().size(), Tensor());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        // An observer sees a parameter input as the Parameter (the debugger shows its values and
        // norms as in PyNative); kernels never look at the autodiff link either way.
        const ValueId id = m_graph.inputs()[i];
        const bool parameter = m_graph.value(id).kind == ValueKind::Parameter;
        m_values[id] = observed && parameter ? inputs[i] : inputs[i].detach();
    }
    for (const GraphValue& v : m_graph.values())
        if (v.kind == ValueKind::Constant)
            m_values[v.id] = v.constant;
    const bool parallel = !observed && InterOpPool::instance().threads() > 1;
    const auto& nodes = m_graph.nodes();
    // Each callback's moment: after the node computing the last of its outputs (-1: at once).
    std::vector<std::int64_t> after(ready.size(), -1);
    for (std::size_t k = 0; k < ready.size(); ++k)
        for (std::size_t index : ready[k].outputs) {
            const GraphValue& v = m_graph.value(m_graph.outputs().at(index));
            if (v.kind == ValueKind::NodeOutput)
                after[k] = std::max<std::int64_t>(after[k], v.node);
        }
    const auto fireUpTo = [&](std::int64_t last) {
        for (std::size_t k = 0; k < ready.size(); ++k)
            if (after[k] != kFired && after[k] <= last) {
                after[k] = kFired;
                TensorList values;
                for (std::size_t index : ready[k].outputs)
                    values.push_back(outputValue(index));
                ready[k].reached(values);
            }
    };
    fireUpTo(-1);
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        const NodeGroup& group = m_groups[g];
        if (parallel && group.parallel) {
            runGroup(g);
        } else {
            for (NodeId id = group.begin; id < group.end; ++id) {
                runNode(nodes[id], observed);
                fireUpTo(id);
            }
        }
        fireUpTo(static_cast<std::int64_t>(group.end) - 1);
        for (NodeId id = group.begin; id < group.end; ++id)
            for (ValueId in : nodes[id].inputs)
                if (m_lastUse[in] == id)
                    m_values[in] = Tensor();
    }
    TensorList outputs;
    for (std::size_t i = 0; i < m_graph.outputs().size(); ++i)
        outputs.push_back(outputValue(i));
    m_values.clear();
    return outputs;
}

Tensor GraphExecutor::outputValue(std::size_t index) const
{
    const ValueId out = m_graph.outputs()[index];
    return m_graph.value(out).isInput() ? m_values[out].detach() : m_values[out];
}

void GraphExecutor::runNode(const GraphNode& node, bool observed)
{
    m_scratchInputs.clear();
    for (ValueId in : node.inputs)
        m_scratchInputs.push_back(m_values[in]);
    const std::span<const Tensor> inputs(m_scratchInputs);
    switch (node.kind) {
    case NodeKind::Op: runOp(node, inputs, observed); return;
    case NodeKind::If: runIf(node, inputs); return;
    case NodeKind::While: runWhile(node, inputs); return;
    case NodeKind::WhileGrad: runWhileGrad(node, inputs); return;
    case NodeKind::CustomBprop: runCustomBprop(node, inputs); return;
    case NodeKind::Fused: runFused(node, inputs, observed); return;
    }
}

Tensor GraphExecutor::allocate(ValueId id, bool observed)
{
    const GraphValue& v = m_graph.value(id);
    if (v.buffer < 0 || observed)
        return Tensor::empty(v.spec.shape, v.spec.dtype);
    auto& storage = m_slots[static_cast<std::size_t>(v.buffer)];
    if (!storage)
        storage = std::make_shared<Storage>(
            static_cast<std::size_t>(m_slotBytes[static_cast<std::size_t>(v.buffer)]));
    auto impl = std::make_shared<TensorImpl>();
    impl->shape = v.spec.shape;
    impl->dtype = v.spec.dtype;
    impl->storage = storage;
    return Tensor(std::move(impl));
}

void GraphExecutor::allocateOutputs(const GraphNode& node, OutputList& outputs, bool observed)
{
    outputs.clear();
    const bool kernelAllocates = node.kind == NodeKind::Op && node.op->allocatesOutputs;
    for (ValueId out : node.outputs)
        outputs.push_back(kernelAllocates ? Tensor() : allocate(out, observed));
}

void GraphExecutor::storeOutputs(const GraphNode& node, std::span<const Tensor> outputs)
{
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const TensorSpec& spec = m_graph.spec(node.outputs[i]);
        if (!outputs[i].defined() || !(outputs[i].shape() == spec.shape)
            || outputs[i].dtype() != spec.dtype)
            throw RuntimeError("node '" + node.label()
                               + "' produced an output that differs from its inferred "
                               + specToString(spec));
        m_values[node.outputs[i]] = outputs[i];
    }
}

void GraphExecutor::runOp(const GraphNode& node, std::span<const Tensor> inputs, bool observed)
{
    const OpDef& op = *node.op;
    OutputList outputs;
    allocateOutputs(node, outputs, observed);
    const Attrs& attrs = attrsOf(node);
    NodeEvents events(node, inputs, &attrs);
    const OpCall call{op, inputs, attrs};
    {
        const profile::OpTimer timer(call, &node, &m_graph);
        runKernel(call, outputs.span());
    }
    storeOutputs(node, outputs.span());
    events.finished(outputs.span());
}

void GraphExecutor::runGroup(std::size_t group)
{
    const NodeGroup& g = m_groups[group];
    const auto& nodes = m_graph.nodes();
    const std::size_t count = g.end - g.begin;
    m_groupInputs.resize(count);
    m_groupOutputs.resize(count);
    // Everything that touches the executor's state happens here, on the calling thread; the
    // tasks only run kernels on tensors prepared for them.
    for (std::size_t k = 0; k < count; ++k) {
        const GraphNode& node = nodes[g.begin + k];
        m_groupInputs[k].clear();
        for (ValueId in : node.inputs)
            m_groupInputs[k].push_back(m_values[in]);
        allocateOutputs(node, m_groupOutputs[k], false);
    }
    auto task = [&](std::size_t i) {
        const NodeId id = m_groupOrder[group][i];
        const std::size_t k = id - g.begin;
        const GraphNode& node = nodes[id];
        const std::span<const Tensor> inputs(m_groupInputs[k]);
        try {
            const OpCall call{*node.op, inputs, attrsOf(node)};
            const profile::OpTimer timer(call, &node, &m_graph);
            if (node.kind == NodeKind::Fused)
                m_fusedKernels[id]->run(inputs, m_groupOutputs[k].span());
            else
                runKernel(call, m_groupOutputs[k].span());
        } catch (...) {
            m_groupErrors[k] = std::current_exception();
        }
    };
    m_groupErrors.assign(count, nullptr);
    ParallelChoice& choice = m_groupChoice[group];
    const bool atOnce = choice.nextParallel();
    const auto start = std::chrono::steady_clock::now();
    if (atOnce)
        InterOpPool::instance().run(count, task);
    else
        for (std::size_t i = 0; i < count; ++i)
            task(i);
    choice.record(atOnce, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    for (std::exception_ptr& error : m_groupErrors)
        if (error)
            std::rethrow_exception(error); // the first in graph order, as a sequential run would
    for (std::size_t k = 0; k < count; ++k) {
        storeOutputs(nodes[g.begin + k], m_groupOutputs[k].span());
        m_groupInputs[k].clear();
        m_groupOutputs[k].clear();
    }
}

void GraphExecutor::runIf(const GraphNode& node, std::span<const Tensor> inputs)
{
    NodeEvents events(node, inputs);
    const bool condition = inputs[0].at(0) != 0.0;
    TensorList results = subExecutor(node, condition ? 0 : 1).run(inputs.subspan(1));
    for (std::size_t i = 0; i < results.size(); ++i)
        m_values[node.outputs[i]] = results[i];
    events.finished(results);
}

namespace {

[[noreturn]] void throwBoundExceeded(const GraphNode& node, std::int64_t bound)
{
    const SourceLocation& at = node.identity.location;
    const std::string& scope = node.identity.scope;
    const std::string message = "the while loop" + (scope.empty() ? std::string() : " in '" + scope + "'")
                                + " exceeded its bound of " + std::to_string(bound)
                                + " iterations (MindSpore: Exceed function call depth limit "
                                + std::to_string(bound)
                                + "); raise the bound (set_context(max_call_depth=n)) or restructure "
                                  "the loop";
    if (at.file)
        throw LocatedRuntimeError(message, *at.file, at.line, at.column);
    throw RuntimeError(message);
}

} // namespace

TensorList GraphExecutor::loop(const GraphNode& node, TensorList carried,
                               std::vector<TensorList>* trajectory)
{
    const std::int64_t bound = node.attrs.getInt("max_iterations");
    for (std::int64_t iteration = 0;; ++iteration) {
        if (subExecutor(node, 0).run(carried)[0].at(0) == 0.0)
            return carried;
        if (iteration == bound)
            throwBoundExceeded(node, bound);
        TensorList next = subExecutor(node, 1).run(carried);
        if (trajectory)
            trajectory->push_back(std::move(carried));
        carried = std::move(next);
    }
}

void GraphExecutor::runWhile(const GraphNode& node, std::span<const Tensor> inputs)
{
    NodeEvents events(node, inputs);
    const TensorList carried = loop(node, TensorList(inputs.begin(), inputs.end()), nullptr);
    for (std::size_t i = 0; i < carried.size(); ++i)
        m_values[node.outputs[i]] = carried[i];
    events.finished(carried);
}

// Note [While gradients] in graph.h. The replay is a recomputation of values the forward While
// already reported, so it runs without events; the gradient graph's nodes report per iteration.
void GraphExecutor::runWhileGrad(const GraphNode& node, std::span<const Tensor> inputs)
{
    NodeEvents events(node, inputs);
    const std::size_t n = inputs.size() / 2;
    std::vector<TensorList> trajectory;
    {
        ExecutionContext& ctx = executionContext();
        ++ctx.suppressEvents;
        struct Restore {
            ExecutionContext& ctx;
            ~Restore() { --ctx.suppressEvents; }
        } restore{ctx};
        loop(node, TensorList(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(n)),
             &trajectory);
    }
    const std::vector<std::size_t> floats = floatInputPositions(*node.subgraphs[1]);
    TensorList grads(inputs.begin() + static_cast<std::ptrdiff_t>(n), inputs.end());
    TensorList arguments;
    for (std::size_t k = trajectory.size(); k-- > 0;) {
        arguments = trajectory[k];
        arguments.insert(arguments.end(), grads.begin(), grads.end());
        const TensorList step = subExecutor(node, 2).run(arguments);
        // Loop variables that are not floats carry no gradient: theirs stay as given (unused).
        for (std::size_t j = 0; j < floats.size(); ++j)
            grads[floats[j]] = step[j];
        trajectory[k].clear();
    }
    TensorList results;
    for (std::size_t j = 0; j < floats.size(); ++j) {
        results.push_back(grads[floats[j]]);
        m_values[node.outputs[j]] = results.back();
    }
    events.finished(results);
}

void GraphExecutor::runCustomBprop(const GraphNode& node, std::span<const Tensor> inputs)
{
    NodeEvents events(node, inputs);
    const TensorList results = subExecutor(node, 0).run(inputs);
    for (std::size_t i = 0; i < results.size(); ++i)
        m_values[node.outputs[i]] = results[i];
    events.finished(results);
}

void GraphExecutor::runFused(const GraphNode& node, std::span<const Tensor> inputs, bool observed)
{
    NodeEvents events(node, inputs);
    TensorList outputs;
    if (observed) {
        const TensorList copy(inputs.begin(), inputs.end());
        outputs = subExecutor(node, 0).run(copy);
    } else {
        for (ValueId out : node.outputs)
            outputs.push_back(allocate(out, false));
        const OpCall call{*node.op, inputs, node.attrs};
        const profile::OpTimer timer(call, &node, &m_graph);
        m_fusedKernels[node.id]->run(inputs, outputs);
    }
    for (std::size_t i = 0; i < outputs.size(); ++i)
        m_values[node.outputs[i]] = outputs[i];
    events.finished(outputs);
}

TensorList executeGraph(const Graph& graph, std::span<const Tensor> inputs)
{
    GraphExecutor executor(graph);
    return executor.run(inputs);
}

} // namespace gradstep
