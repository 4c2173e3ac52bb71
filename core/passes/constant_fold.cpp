// constant_fold: runs nodes whose inputs are all constants through their op's own kernel and
// replaces them by the results; an If on a constant condition becomes the chosen branch.
// SPDX-License-Identifier: MIT
#include "graph/autodiff.h"
#include "ops/compute_dtype.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace gradstep {

namespace {

// Larger results stay nodes: a folded constant is stored in the graph and printed in its text.
constexpr std::int64_t kMaxFoldedElements = 1 << 16;

bool allConstant(const Graph& graph, const std::vector<ValueId>& values)
{
    for (ValueId v : values)
        if (graph.value(v).kind != ValueKind::Constant)
            return false;
    return true;
}

// The op's kernel over the constant inputs; results are fresh tensors.
OutputList evaluate(const OpDef& op, const Graph& graph, const std::vector<ValueId>& inputs,
                    const Attrs& attrs)
{
    TensorList values;
    for (ValueId v : inputs)
        values.push_back(graph.value(v).constant);
    const OpCall call{op, values, attrs};
    SpecList specs;
    op.infer(call, specs);
    OutputList outputs;
    for (const TensorSpec& spec : specs)
        outputs.push_back(op.allocatesOutputs ? Tensor() : Tensor::empty(spec.shape, spec.dtype));
    runKernel(call, outputs.span());
    OutputList results;
    for (const Tensor& t : outputs)
        results.push_back(t.clone());
    return results;
}

std::int64_t outputElements(const Graph& graph, const GraphNode& node)
{
    std::int64_t n = 0;
    for (ValueId out : node.outputs)
        n += graph.spec(out).shape.numel();
    return n;
}

// `inputs` are the node's inputs in the new graph `g`; `source` is the graph the node is from.
bool foldable(const Graph& g, const Graph& source, const GraphNode& node,
              const std::vector<ValueId>& inputs)
{
    return node.kind == NodeKind::Op && !hasSideEffects(*node.op) && allConstant(g, inputs)
           && outputElements(source, node) <= kMaxFoldedElements;
}

PassResult runConstantFold(const Graph& graph)
{
    GraphRewriter rewriter(graph);
    Graph& g = rewriter.graph();
    std::int64_t folded = 0, branches = 0;
    for (const GraphNode& node : graph.nodes()) {
        std::vector<ValueId> inputs;
        for (ValueId in : node.inputs)
            inputs.push_back(rewriter.map(in));
        if (node.kind == NodeKind::If && g.value(inputs[0]).kind == ValueKind::Constant) {
            const bool condition = g.value(inputs[0]).constant.at(0) != 0.0;
            const std::vector<ValueId> operands(inputs.begin() + 1, inputs.end());
            const std::vector<ValueId> outs =
                inlineGraph(g, *node.subgraphs[condition ? 0 : 1], operands);
            for (std::size_t i = 0; i < outs.size(); ++i)
                rewriter.replace(node.outputs[i], outs[i]);
            ++branches;
            continue;
        }
        if (!foldable(g, graph, node, inputs)) {
            rewriter.copy(node);
            continue;
        }
        const OutputList results = evaluate(*node.op, g, inputs, node.attrs);
        for (std::size_t i = 0; i < results.size(); ++i)
            rewriter.replace(node.outputs[i], g.addConstant(results[i]));
        ++folded;
    }
    PassResult r{rewriter.finish(), folded > 0 || branches > 0, "", {}};
    r.summary = r.changed ? "folded " + countNoun(folded, "node") + " and "
                                + countNoun(branches, "constant branch", "constant branches")
                          : "nothing to fold";
    r.stats = {{"folded_nodes", folded}, {"folded_branches", branches}};
    return r;
}

} // namespace

const PassInfo kConstantFoldPass{
    "constant_fold",
    "Constant folding: evaluates nodes whose inputs are all constants",
    "Runs each op node whose inputs are all constants through the op's own kernel (the one "
    "PyNative "
    "runs) and replaces its outputs by constants; folding cascades along chains in one walk. An If "
    "whose condition is a constant is replaced by the chosen branch's nodes. It does not fold ops "
    "that draw random numbers, results of more than 65536 elements (they would bloat the graph and "
    "its text) or While loops (a pipeline runs it inside their bodies); the folded nodes' inputs "
    "are left for dce.",
    {},
    runConstantFold};

} // namespace gradstep
