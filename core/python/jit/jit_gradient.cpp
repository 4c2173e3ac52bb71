// Gradient calls inside compiled code: the autodiff transform at compile time.
// SPDX-License-Identifier: MIT
//
// Note [Gradients inside compiled code]
// A @jit function, a compiled Cell's construct or a graph-mode function whose body calls grad,
// value_and_grad, GradOperation (any flags, sens_param), or TrainOneStepCell's step, compiles
// whole. The compiler installs itself as the engine differentiate() hands a call to while ops
// are traced (TraceDifferentiatorGuard); inlineGradient then
//   1. traces the differentiated function into a subgraph: each requested position gets a
//      subgraph input of its own (as PyNative's watchInput gives it a node of its own), and what
//      the function reads from outside (Parameters, values of the enclosing graph) becomes the
//      subgraph's further inputs (buildSubgraph's captures);
//   2. runs the graph autodiff transform on that subgraph (gradientGraph: the forward, then the
//      backward nodes built from each op's backward rule), with the weights found among the
//      captures, has_aux's first output as the only root and sens inputs for sens_param;
//   3. inlines the result into the graph being built over the actual operands, so forward and
//      backward nodes keep their scopes and the user's source lines, and returns symbolic
//      tensors; aux outputs pass through StopGradient as in PyNative.
// Because the inlined backward nodes are ordinary op nodes, a gradient of code that itself takes
// a gradient (grad of grad, grad inside a differentiated function) differentiates them again.
// Writes the differentiated function makes (BatchNorm's running statistics) are extra,
// undifferentiated subgraph outputs, written in the enclosing graph after the inlining.
//
// ops.vjp in compiled code runs the function once: its vjp_fn is a pullback of that forward, so
// each vjp_fn call's gradient is inlined without its writes (PullbackOnlyGuard). MindSpore's
// compiler merges the forward of vjp and of its vjp_fn calls the same way: BatchNorm's running
// statistics move once per vjp, however many cotangents are pulled back
// (test_vjp_multiple_outputs_merge_forward). PyNative runs the forward again for every vjp_fn
// call, as MindSpore's PyNative does.
//
// What still runs in Python (the body of the function being compiled, statement by statement, as
// MindSpore's JIT fallback runs what it cannot compile; mindspore._jit_stats()["fallbacks"]
// counts them): a gradient call or a Parameter write inside an `if` / `while` on a tensor value;
// an optimizer update inside such a body or inside a differentiated function; a
// TrainOneStepCell with a sens other than 1.0; the loss-scale training cells; Python-written
// optimizers whose construct does either of those; ops whose output shape depends on input values
// (Unique, MaskedSelect, NonZero; jit_runtime.cpp); and the gradient of a While loop's gradient
// (graph autodiff refuses second order through loops).
#include "python/jit/jit_walker.h"

#include "autodiff/context.h"
#include "graph/autodiff.h"
#include "ops/autodiff_ops.h"
#include "ops/elementwise.h"

#include <utility>

namespace gradstep::python {

namespace {

SpecList specsOf(const Graph& graph, std::size_t count)
{
    SpecList specs;
    for (std::size_t i = 0; i < count; ++i)
        specs.push_back(graph.spec(graph.outputs()[i]));
    return specs;
}

Tensor zerosLike(const Tensor& t) { return Tensor::zeros(t.shape(), t.dtype()); }

thread_local bool t_pullbackOnly = false;

} // namespace

PullbackOnlyGuard::PullbackOnlyGuard() : m_saved(std::exchange(t_pullbackOnly, true)) {}

PullbackOnlyGuard::~PullbackOnlyGuard() { t_pullbackOnly = m_saved; }

GradResult Compiler::inlineGradient(const Function& fn, const std::vector<Value>& args,
                                    const Value& sens, const GradRequest& request)
{
    // Only the gradient call the guard was made for: differentiations inside fn write as usual.
    const bool pullbackOnly = std::exchange(t_pullbackOnly, false);
    std::vector<ValueId> positionOperands;
    for (std::int64_t p : request.positions) {
        const Value& slot = args[static_cast<std::size_t>(p)];
        if (!slot.isTensor())
            throw TypeError("grad_position " + std::to_string(p) + " refers to "
                            + (slot.isNone() ? std::string("None") : std::string("a tuple"))
                            + ", but only a Tensor argument can be differentiated");
        positionOperands.push_back(tracer().valueOf(slot.tensor()));
    }

    // 1. The function, traced into a subgraph.
    Frame blank;
    const Frame& frame = m_frames.empty() ? blank : *m_frames.back();
    StateWrites writes;
    Value output;
    std::size_t leaves = 0;
    Subgraph sub = buildSubgraph(
        frame, "grad",
        [&](Subgraph& s) {
            std::vector<Value> inner = args;
            for (std::int64_t p : request.positions) {
                const Tensor& x = args[static_cast<std::size_t>(p)].tensor();
                const ValueId in =
                    s.graph->addInput("x" + std::to_string(p), {x.shape(), x.dtype()});
                inner[static_cast<std::size_t>(p)] = Value(s.tracer->bind(in));
            }
            output = fn(inner);
            std::vector<ValueId> outputs;
            for (const Tensor& t : output.leaves())
                outputs.push_back(s.tracer->valueOf(t));
            leaves = outputs.size();
            outputs.insert(outputs.end(), writes.values.begin(), writes.values.end());
            s.graph->setOutputs(std::move(outputs));
            return Flow::Normal;
        },
        &writes);
    sub.tracer.reset();
    const Graph& forward = *sub.graph;

    // 2. Its gradient graph.
    GradientSpec spec;
    std::size_t roots = leaves;
    if (request.hasAux) {
        if (!output.isTuple() || output.size() < 2)
            throw ValueError("When has_aux is True, origin fn requires more than one outputs.");
        roots = output[0].leaves().size();
    }
    spec.differentiatedOutputs = roots;
    spec.sensInputs = request.sensParam;
    // Per requested gradient, its entries in spec.wrt (none: zeros; several: a weight captured
    // more than once, summed).
    std::vector<std::vector<std::size_t>> slots;
    for (std::size_t i = 0; i < request.positions.size(); ++i) {
        const ValueId in = forward.inputs()[i];
        slots.emplace_back();
        if (carriesGradient(forward.spec(in).dtype)) {
            slots.back().push_back(spec.wrt.size());
            spec.wrt.push_back(in);
        }
    }
    const std::vector<ValueId>& captures = *sub.operands;
    for (const Parameter& w : request.weights) {
        const ValueId outer = tracer().valueOf(w);
        slots.emplace_back();
        for (std::size_t k = 0; k < captures.size(); ++k)
            if (captures[k] == outer && carriesGradient(w.dtype())) {
                slots.back().push_back(spec.wrt.size());
                spec.wrt.push_back(forward.inputs()[request.positions.size() + k]);
            }
    }
    std::vector<ValueId> operands = positionOperands;
    operands.insert(operands.end(), captures.begin(), captures.end());
    if (request.sensParam)
        for (const Tensor& seed : checkedSens(sens, specsOf(forward, roots)))
            operands.push_back(tracer().valueOf(seed));
    const Graph gradient = gradientGraph(forward, spec);

    // 3. Inlined here.
    const std::vector<ValueId> results = inlineGraph(graph(), gradient, operands);
    std::size_t next = 0;
    const Value value = output.map([&](const Tensor&) { return tracer().bind(results[next++]); });
    for (std::size_t k = 0; k < writes.targets.size() && !pullbackOnly; ++k)
        write(writes.targets[k], tracer().bind(results[leaves + k]));
    const std::size_t firstGradient = results.size() - spec.wrt.size();
    const auto gradientOf = [&](const std::vector<std::size_t>& mine, const Tensor& like) {
        Tensor g;
        for (std::size_t slot : mine) {
            const Tensor part = tracer().bind(results[firstGradient + slot]);
            g = g.defined() ? add(g, part) : part;
        }
        return g.defined() ? g : zerosLike(like);
    };

    GradResult result;
    result.output = value;
    if (request.hasAux) {
        std::vector<Value> aux;
        for (std::size_t i = 1; i < value.size(); ++i)
            aux.push_back(value[i].map([](const Tensor& t) { return stopGradient(t); }));
        std::vector<Value> full{value[0]};
        full.insert(full.end(), aux.begin(), aux.end());
        result.aux = Value::tuple(std::move(aux));
        result.output = Value::tuple(std::move(full));
    }
    for (std::size_t i = 0; i < request.positions.size(); ++i)
        result.inputGrads.push_back(
            gradientOf(slots[i], args[static_cast<std::size_t>(request.positions[i])].tensor()));
    for (std::size_t k = 0; k < request.weights.size(); ++k)
        result.weightGrads.push_back(
            gradientOf(slots[request.positions.size() + k], request.weights[k]));
    return result;
}

} // namespace gradstep::python
