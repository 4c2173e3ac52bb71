// conv_cols_reuse: a Conv2D whose input also feeds its weight's gradient
// (Conv2DBackpropFilter(dy, x) with the same attributes and filter_size) becomes Conv2DWithCols,
// which keeps x's col matrices, and the filter gradient (Conv2DBackpropFilterFromCols) reads them (Note [Saved col matrices] in
// ops/nn/conv_cols_ops.h). Bit-identical to the pair it replaces. SPDX-License-Identifier: MIT
#include "ops/nn/conv_cols_ops.h"
#include "ops/nn/defs.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

#include <map>

namespace gradstep {

namespace {

// Col matrices kept from the forward to the backward pass take at most this much memory per
// convolution; past it the copy is made twice, as in PyNative, rather than risk running out of
// memory (LeNet5's at batch 32: 2.5 MB and 1.9 MB; a 3x3, 64-channel layer over 224x224 images:
// 115 MB per image).
constexpr double kMaxColsBytes = 64.0 * 1024 * 1024;

double colsBytes(const Graph& g, const GraphNode& conv)
{
    const Shape& x = g.spec(conv.inputs[0]).shape;
    const Shape& w = g.spec(conv.inputs[1]).shape;
    const Shape& y = g.spec(conv.outputs[0]).shape;
    return static_cast<double>(x[0]) * static_cast<double>(w[1] * w[2] * w[3]) * static_cast<double>(y[2] * y[3])
           * static_cast<double>(itemSize(g.spec(conv.inputs[0]).dtype));
}

// Whether the filter gradient `grad` differentiates the convolution `conv` for its weight: the
// same input, attributes and weight shape. Grouped convolutions and 1x1 kernels are left alone
// (the cols ops support group 1; a 1x1 kernel's col matrix is often the image itself), and so are
// convolutions whose col matrices would pass kMaxColsBytes.
bool sameConvolution(const Graph& g, const GraphNode& conv, const GraphNode& grad)
{
    if (grad.inputs[1] != conv.inputs[0] || !(convAttrsOf(grad.attrs) == convAttrsOf(conv.attrs)))
        return false;
    const Shape& w = g.spec(conv.inputs[1]).shape;
    return conv.attrs.getInt("group", 1) == 1 && w.rank() == 4 && w[2] * w[3] > 1
           && grad.attrs.getInts("filter_size", {}) == w.toVector() && colsBytes(g, conv) <= kMaxColsBytes;
}

PassResult runConvColsReuse(const Graph& graph)
{
    // For each filter gradient, the earlier Conv2D whose col matrices it can read.
    std::vector<const GraphNode*> convOf(graph.nodes().size(), nullptr);
    std::vector<bool> shared(graph.nodes().size(), false); // per Conv2D
    for (const GraphNode& grad : graph.nodes()) {
        if (!isOpNode(grad, kConv2DBackpropFilter))
            continue;
        for (const GraphNode& conv : graph.nodes()) {
            if (conv.id >= grad.id)
                break;
            if (isOpNode(conv, kConv2D) && sameConvolution(graph, conv, grad)) {
                convOf[grad.id] = &conv;
                shared[conv.id] = true;
                break;
            }
        }
    }
    GraphRewriter rewriter(graph);
    std::map<NodeId, ValueId> colsOf; // Conv2D -> its col matrices in the new graph
    std::int64_t convolutions = 0;
    for (const GraphNode& node : graph.nodes()) {
        if (shared[node.id]) {
            const ValueId inputs[] = {rewriter.map(node.inputs[0]), rewriter.map(node.inputs[1])};
            const std::vector<ValueId> outs =
                rewriter.graph().addNode(kConv2DWithCols, inputs, convAttrsOf(node.attrs), node.identity);
            rewriter.replace(node.outputs[0], outs[0]);
            colsOf[node.id] = outs[1];
            ++convolutions;
        } else if (const GraphNode* conv = convOf[node.id]) {
            Attrs attrs = convAttrsOf(node.attrs);
            attrs.set("input_size", graph.spec(conv->inputs[0]).shape.toVector())
                .set("filter_size", node.attrs.getInts("filter_size"));
            rewriter.replace(node.outputs[0],
                             rewriter.graph().addNode1(kConv2DBackpropFilterFromCols,
                                                       {rewriter.map(node.inputs[0]), colsOf.at(conv->id)}, attrs,
                                                       node.identity));
        } else {
            rewriter.copy(node);
        }
    }
    PassResult r{rewriter.finish(), convolutions > 0, "", {{"shared_cols", convolutions}}};
    r.summary = convolutions > 0 ? "one im2col for " + countNoun(convolutions, "convolution") + " and its filter gradient"
                                 : "no convolution shares its input with a filter gradient";
    return r;
}

} // namespace

const PassInfo kConvColsReusePass{
    "conv_cols_reuse",
    "Copies a convolution's receptive fields once for the forward pass and the weight gradient",
    "Replaces Conv2D(x, w) and Conv2DBackpropFilter(dy, x) with the same attributes by "
    "y, cols = Conv2DWithCols(x, w) and Conv2DBackpropFilterFromCols(dy, cols): the "
    "im2col copy is made once instead of twice, and the col matrices stay in memory from the "
    "forward pass to the backward one. Bit-identical (the same GEMMs in the same order). It "
    "does not touch grouped convolutions, 1x1 kernels, convolutions without a filter gradient, or "
    "ones whose col matrices would take more than 64 MiB.",
    {},
    runConvColsReuse};

} // namespace gradstep
