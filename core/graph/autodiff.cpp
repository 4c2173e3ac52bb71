// Graph autodiff (see Note [Graph autodiff] in autodiff.h). SPDX-License-Identifier: MIT
#include "graph/autodiff.h"

#include "autodiff/node.h"
#include "graph/tracer.h"
#include "ops/elementwise.h"

#include <algorithm>

namespace gradstep {

namespace {

bool differentiablePosition(const OpDef& op, std::size_t i)
{
    return op.differentiableInputs >> (i < 63 ? i : 63) & 1;
}

// Which values depend on a `wrt` input through nodes PyNative would record (mirrors recordOp).
std::vector<bool> requiringValues(const Graph& graph, const std::vector<ValueId>& wrt)
{
    std::vector<bool> needed(graph.values().size(), false);
    for (ValueId v : wrt)
        needed[v] = true;
    for (const GraphNode& node : graph.nodes()) {
        bool any = false;
        for (std::size_t i = 0; i < node.inputs.size(); ++i)
            any = any
                  || (needed[node.inputs[i]]
                      && (node.kind != NodeKind::Op || differentiablePosition(*node.op, i)));
        if (node.kind == NodeKind::Op && !node.op->differentiable())
            any = false;
        for (ValueId out : node.outputs)
            needed[out] = any && carriesGradient(graph.spec(out).dtype);
    }
    return needed;
}

class GradientBuilder {
public:
    GradientBuilder(Graph& graph, std::vector<bool> needed)
        : m_graph(graph), m_tracer(graph), m_requires(std::move(needed)), m_grads(m_requires.size())
    {
    }

    // Seeds the differentiated outputs with ones or with new sens inputs; like the engine's
    // seeding, a root given twice adds its seeds.
    void seed(const GradientSpec& spec)
    {
        NodeIdentity identity;
        identity.scope = "Gradients";
        identity.phase = Phase::Backward;
        m_tracer.setIdentity(identity);
        const std::vector<ValueId> outputs = m_graph.outputs();
        const std::size_t roots = std::min(spec.differentiatedOutputs, outputs.size());
        for (std::size_t i = 0; i < roots; ++i) {
            const TensorSpec& s = m_graph.spec(outputs[i]);
            const Tensor seed = spec.sensInputs
                                    ? m_tracer.bind(m_graph.addInput("sens" + std::to_string(i), s))
                                    : Tensor::full(s.shape, 1.0, s.dtype);
            if (m_requires[outputs[i]])
                accumulate(outputs[i], seed);
        }
    }

    void propagate(std::size_t forwardNodes)
    {
        for (std::size_t k = forwardNodes; k-- > 0;) {
            const GraphNode node =
                m_graph.node(static_cast<NodeId>(k)); // copied: the graph grows below
            bool flows = false;
            for (ValueId out : node.outputs)
                flows = flows || m_grads[out].defined();
            if (!flows)
                continue;
            m_tracer.setIdentity(backwardIdentity(node));
            switch (node.kind) {
            case NodeKind::Op: opRule(node); break;
            case NodeKind::If: ifRule(node); break;
            case NodeKind::Fused: fusedRule(node); break;
            case NodeKind::While: whileRule(node); break;
            case NodeKind::CustomBprop: bpropRule(node); break;
            case NodeKind::WhileGrad:
                throw AutodiffError("the gradient of the while loop '" + node.label()
                                    + "' cannot be differentiated again in graph mode; take "
                                      "higher-order gradients of loops in PyNative mode");
            }
        }
    }

    ValueId result(ValueId wrt)
    {
        m_tracer.setIdentity(std::nullopt);
        const Tensor& g = m_grads[wrt];
        const TensorSpec& spec = m_graph.spec(wrt);
        return m_tracer.valueOf(g.defined() ? g : Tensor::zeros(spec.shape, spec.dtype));
    }

private:
    static NodeIdentity backwardIdentity(const GraphNode& node)
    {
        NodeIdentity identity;
        identity.scope =
            node.identity.scope.empty() ? "Gradients" : "Gradients/" + node.identity.scope;
        identity.location = node.identity.location;
        identity.phase = Phase::Backward;
        identity.origin = node.id;
        return identity;
    }

    void accumulate(ValueId v, const Tensor& g)
    {
        m_grads[v] = m_grads[v].defined() ? add(m_grads[v], g) : g;
    }

    // Every output gets a gradient, zeros where none flowed in (the engine's materialize()).
    OutputList outputGrads(const GraphNode& node)
    {
        OutputList grads;
        for (ValueId out : node.outputs) {
            const TensorSpec& spec = m_graph.spec(out);
            grads.push_back(m_grads[out].defined() ? m_grads[out]
                                                   : Tensor::zeros(spec.shape, spec.dtype));
        }
        return grads;
    }

    void opRule(const GraphNode& node)
    {
        const OpDef& op = *node.op;
        if (!op.backward)
            return;
        auto saved = std::make_shared<Node>();
        saved->op = &op;
        saved->attrs = node.attrs;
        for (ValueId in : node.inputs)
            saved->inputs.push_back(m_tracer.bind(in, m_requires[in]));
        for (ValueId out : node.outputs)
            saved->outputs.push_back(m_tracer.bind(out));
        const OutputList grads = outputGrads(node);
        TensorList gradInputs = op.backward(BackwardContext(*saved), grads.span());
        for (std::size_t i = 0; i < gradInputs.size() && i < node.inputs.size(); ++i)
            gradInputs[i] = inInputDType(gradInputs[i], m_graph.spec(node.inputs[i]).dtype);
        validate(node, gradInputs);
        for (std::size_t i = 0; i < gradInputs.size(); ++i)
            if (gradInputs[i].defined() && m_requires[node.inputs[i]])
                accumulate(node.inputs[i], gradInputs[i]);
    }

    void validate(const GraphNode& node, const TensorList& gradInputs) const
    {
        if (gradInputs.size() != node.inputs.size())
            throw AutodiffError("backward rule of node '" + node.label() + "' returned "
                                + std::to_string(gradInputs.size()) + " gradients for "
                                + std::to_string(node.inputs.size()) + " inputs");
        for (std::size_t i = 0; i < gradInputs.size(); ++i) {
            const Tensor& g = gradInputs[i];
            const TensorSpec& in = m_graph.spec(node.inputs[i]);
            if (g.defined() && (!(g.shape() == in.shape) || g.dtype() != in.dtype))
                throw AutodiffError("gradient for input " + std::to_string(i) + " of node '"
                                    + node.label() + "' is " + specToString({g.shape(), g.dtype()})
                                    + ", expected " + specToString(in));
        }
    }

    // A subgraph's gradient graph over (its inputs, one sens per output), returning only the
    // gradients of its float inputs: what If branches, loop bodies and fused members are
    // differentiated by.
    static Graph subgraphGradient(const Graph& sub, std::vector<std::size_t>& floatInputs)
    {
        GradientSpec spec;
        floatInputs = floatInputPositions(sub);
        for (std::size_t i : floatInputs)
            spec.wrt.push_back(sub.inputs()[i]);
        spec.sensInputs = true;
        Graph g = gradientGraph(sub, spec);
        const std::vector<ValueId> all = g.outputs();
        g.setOutputs(std::vector<ValueId>(all.end() - static_cast<std::ptrdiff_t>(spec.wrt.size()),
                                          all.end()));
        return g;
    }

    // Arguments of a subgraph gradient: the node's inputs then its output gradients.
    std::vector<ValueId> gradientArguments(const GraphNode& node, std::size_t skip)
    {
        std::vector<ValueId> args(node.inputs.begin() + static_cast<std::ptrdiff_t>(skip),
                                  node.inputs.end());
        for (const Tensor& g : outputGrads(node))
            args.push_back(m_tracer.valueOf(g));
        return args;
    }

    void accumulateResults(const GraphNode& node, std::size_t skip,
                           const std::vector<std::size_t>& floatInputs,
                           const std::vector<ValueId>& results)
    {
        for (std::size_t k = 0; k < floatInputs.size(); ++k) {
            const ValueId in = node.inputs[skip + floatInputs[k]];
            if (m_requires[in])
                accumulate(in, m_tracer.bind(results[k]));
        }
    }

    void ifRule(const GraphNode& node)
    {
        std::vector<std::size_t> floatInputs, sameInputs;
        Graph thenGrad = subgraphGradient(*node.subgraphs[0], floatInputs);
        Graph elseGrad = subgraphGradient(*node.subgraphs[1], sameInputs);
        const std::vector<ValueId> args = gradientArguments(node, 1);
        const std::vector<ValueId> results = m_graph.addIf(
            node.inputs[0], args, std::move(thenGrad), std::move(elseGrad), backwardIdentity(node));
        accumulateResults(node, 1, floatInputs, results);
    }

    // Note [While gradients] in graph.h: one WhileGrad node over the loop's initial values and
    // its output gradients, whose grad subgraph is the body's gradient graph.
    void whileRule(const GraphNode& node)
    {
        std::vector<std::size_t> floatInputs;
        Graph bodyGrad = subgraphGradient(*node.subgraphs[1], floatInputs);
        const std::vector<ValueId> args = gradientArguments(node, 0);
        const std::vector<ValueId> results = m_graph.addWhileGrad(
            args, *node.subgraphs[0], *node.subgraphs[1], std::move(bodyGrad),
            node.attrs.getInt("max_iterations"), backwardIdentity(node));
        accumulateResults(node, 0, floatInputs, results);
    }

    // Note [Custom bprop in graphs] in graph.h: the bprop subgraph inlined over (operands, out,
    // dout); its results are the argument leaves' gradients, verbatim. Its nodes name the
    // CustomBprop node as their origin.
    void bpropRule(const GraphNode& node)
    {
        std::vector<ValueId> args = node.inputs;
        args.insert(args.end(), node.outputs.begin(), node.outputs.end());
        for (const Tensor& g : outputGrads(node))
            args.push_back(m_tracer.valueOf(g));
        const std::size_t first = m_graph.nodes().size();
        const std::vector<ValueId> results = inlineGraph(m_graph, *node.subgraphs[1], args);
        for (std::size_t k = first; k < m_graph.nodes().size(); ++k)
            if (m_graph.node(static_cast<NodeId>(k)).identity.origin == kNoId)
                m_graph.setOrigin(static_cast<NodeId>(k), node.id);
        for (std::size_t i = 0; i < results.size(); ++i)
            if (m_requires[node.inputs[i]])
                accumulate(node.inputs[i], m_tracer.bind(results[i]));
    }

    void fusedRule(const GraphNode& node)
    {
        std::vector<std::size_t> floatInputs;
        const Graph memberGrad = subgraphGradient(*node.subgraphs[0], floatInputs);
        const std::vector<ValueId> args = gradientArguments(node, 0);
        accumulateResults(node, 0, floatInputs, inlineGraph(m_graph, memberGrad, args));
    }

    Graph& m_graph;
    GraphTracer m_tracer;
    std::vector<bool> m_requires;
    std::vector<Tensor> m_grads; ///< per forward value: the gradient accumulated so far
};

} // namespace

Graph gradientGraph(const Graph& forward, const GradientSpec& spec)
{
    for (ValueId v : spec.wrt) {
        const GraphValue& value = forward.value(v);
        if (!value.isInput())
            throw ValueError("gradients are taken with respect to graph inputs; value "
                             + std::to_string(v) + " is not one");
        if (!carriesGradient(value.spec.dtype))
            throw TypeError("input '" + value.name + "' is a "
                            + std::string(dtypeName(value.spec.dtype))
                            + " tensor; only number tensors can be differentiated");
    }
    Graph graph = forward;
    const std::size_t forwardNodes = graph.nodes().size();
    std::vector<ValueId> outputs = forward.outputs();
    {
        GradientBuilder builder(graph, requiringValues(forward, spec.wrt));
        builder.seed(spec);
        builder.propagate(forwardNodes);
        for (ValueId v : spec.wrt)
            outputs.push_back(builder.result(v));
    }
    graph.setOutputs(std::move(outputs));
    return graph;
}

std::vector<ValueId> inlineGraph(Graph& into, const Graph& callee,
                                 std::span<const ValueId> arguments)
{
    if (arguments.size() != callee.inputs().size())
        throw ValueError("inlining '" + callee.name() + "' needs "
                         + std::to_string(callee.inputs().size()) + " arguments, got "
                         + std::to_string(arguments.size()));
    std::vector<ValueId> map(callee.values().size(), kNoId);
    std::vector<NodeId> nodeMap(callee.nodes().size(), kNoId);
    for (std::size_t i = 0; i < arguments.size(); ++i)
        map[callee.inputs()[i]] = arguments[i];
    for (const GraphValue& v : callee.values())
        if (v.kind == ValueKind::Constant)
            map[v.id] = into.addConstant(v.constant);
    for (const GraphNode& node : callee.nodes()) {
        std::vector<ValueId> inputs;
        for (ValueId in : node.inputs)
            inputs.push_back(map[in]);
        const std::vector<ValueId> outs = into.addCopy(node, inputs);
        nodeMap[node.id] = into.value(outs[0]).node;
        if (node.identity.origin != kNoId)
            into.setOrigin(nodeMap[node.id], nodeMap[node.identity.origin]);
        for (std::size_t i = 0; i < outs.size(); ++i)
            map[node.outputs[i]] = outs[i];
    }
    std::vector<ValueId> results;
    for (ValueId out : callee.outputs())
        results.push_back(map[out]);
    return results;
}

} // namespace gradstep
