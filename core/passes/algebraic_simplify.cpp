// algebraic_simplify: x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0 become x; a transpose of a
// transpose becomes one transpose (or x); a reshape of a reshape becomes one reshape (or x).
// SPDX-License-Identifier: MIT
#include "ops/elementwise/defs.h"
#include "ops/shape/defs.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

#include <optional>

namespace gradstep {

namespace {

// Whether v (of the new graph) is a constant whose every element equals `value`.
bool isSplat(const Graph& g, ValueId v, double value)
{
    const GraphValue& c = g.value(v);
    if (c.kind != ValueKind::Constant)
        return false;
    for (std::int64_t i = 0; i < c.constant.numel(); ++i)
        if (c.constant.at(i) != value)
            return false;
    return true;
}

// For `x op c` (or `c op x` when commutative): x, when c is the op's identity element and the
// result has x's shape and dtype (a broadcast or a promotion is not an identity).
std::optional<ValueId> identityOperand(const Graph& g, const GraphNode& node,
                                       const std::vector<ValueId>& in, const TensorSpec& result)
{
    struct Rule {
        const OpDef* op;
        double identity;
        bool commutative;
    };
    static const Rule rules[] = {
        {&kMul, 1.0, true}, {&kAdd, 0.0, true}, {&kSub, 0.0, false}, {&kRealDiv, 1.0, false}};
    for (const Rule& rule : rules) {
        if (node.op != rule.op)
            continue;
        auto keeps = [&](ValueId x) {
            return g.spec(x).shape == result.shape && g.spec(x).dtype == result.dtype;
        };
        if (isSplat(g, in[1], rule.identity) && keeps(in[0]))
            return in[0];
        if (rule.commutative && isSplat(g, in[0], rule.identity) && keeps(in[1]))
            return in[1];
    }
    return std::nullopt;
}

std::vector<std::int64_t> permutationOf(const Attrs& attrs, int rank)
{
    std::vector<std::int64_t> perm = attrs.getInts("perm", {});
    if (perm.empty())
        for (int a = rank - 1; a >= 0; --a)
            perm.push_back(a);
    for (std::int64_t& p : perm)
        if (p < 0)
            p += rank;
    return perm;
}

bool isIdentityPermutation(const std::vector<std::int64_t>& perm)
{
    for (std::size_t a = 0; a < perm.size(); ++a)
        if (perm[a] != static_cast<std::int64_t>(a))
            return false;
    return true;
}

struct Simplifier {
    const Graph& source;
    GraphRewriter& rewriter;
    std::int64_t identities = 0, merged = 0;

    // The node producing v in the new graph when it is an op node `op`, else null.
    const GraphNode* producer(ValueId v, const OpDef& op) const
    {
        const GraphValue& value = rewriter.graph().value(v);
        if (value.kind != ValueKind::NodeOutput)
            return nullptr;
        const GraphNode& n = rewriter.graph().node(value.node);
        return n.kind == NodeKind::Op && n.op == &op ? &n : nullptr;
    }

    void forward(const GraphNode& node, ValueId to, std::int64_t& counter)
    {
        rewriter.replace(node.outputs[0], to);
        ++counter;
    }

    bool simplifyTranspose(const GraphNode& node, ValueId x)
    {
        const int rank = source.spec(node.outputs[0]).shape.rank();
        std::vector<std::int64_t> perm = permutationOf(node.attrs, rank);
        const GraphNode* inner = producer(x, kTranspose);
        if (!inner && !isIdentityPermutation(perm))
            return false;
        if (inner) {
            const std::vector<std::int64_t> first = permutationOf(inner->attrs, rank);
            for (std::int64_t& p : perm)
                p = first[static_cast<std::size_t>(p)];
            x = inner->inputs[0];
        }
        if (isIdentityPermutation(perm))
            forward(node, x, inner ? merged : identities);
        else
            forward(
                node,
                rewriter.graph().addNode1(kTranspose, {x}, Attrs{{"perm", perm}}, node.identity),
                merged);
        return true;
    }

    bool simplifyReshape(const GraphNode& node, ValueId x)
    {
        const TensorSpec& result = source.spec(node.outputs[0]);
        const GraphNode* inner = producer(x, kReshape);
        if (inner)
            x = inner->inputs[0];
        if (rewriter.graph().spec(x).shape == result.shape) {
            forward(node, x, identities);
            return true;
        }
        if (!inner)
            return false;
        const Attrs attrs{{"shape", result.shape.toVector()}};
        forward(node, rewriter.graph().addNode1(kReshape, {x}, attrs, node.identity), merged);
        return true;
    }

    bool simplify(const GraphNode& node)
    {
        if (node.kind != NodeKind::Op || node.outputs.size() != 1)
            return false;
        std::vector<ValueId> in;
        for (ValueId v : node.inputs)
            in.push_back(rewriter.map(v));
        if (node.op == &kTranspose)
            return simplifyTranspose(node, in[0]);
        if (node.op == &kReshape)
            return simplifyReshape(node, in[0]);
        if (in.size() != 2)
            return false;
        if (auto x = identityOperand(rewriter.graph(), node, in, source.spec(node.outputs[0]))) {
            forward(node, *x, identities);
            return true;
        }
        return false;
    }
};

PassResult runAlgebraicSimplify(const Graph& graph)
{
    GraphRewriter rewriter(graph);
    Simplifier s{graph, rewriter};
    for (const GraphNode& node : graph.nodes())
        if (!s.simplify(node))
            rewriter.copy(node);
    PassResult r{rewriter.finish(), s.identities + s.merged > 0, "", {}};
    r.summary = r.changed ? "removed " + countNoun(s.identities, "identity", "identities")
                                + ", merged " + countNoun(s.merged, "pair")
                          : "nothing to simplify";
    r.stats = {{"identities", s.identities}, {"merged_pairs", s.merged}};
    return r;
}

} // namespace

const PassInfo kAlgebraicSimplifyPass{
    "algebraic_simplify",
    "Algebraic simplification: identities, double transposes, reshapes of reshapes",
    "Replaces x * 1, 1 * x, x / 1, x + 0, 0 + x and x - 0 by x when the constant is all ones or "
    "zeros and the result keeps x's shape and dtype; a transpose of a transpose by one transpose "
    "with the composed permutation, or by x when that is the identity; a reshape of a reshape by "
    "one reshape, and a reshape to x's own shape by x. x + 0 -> x keeps a -0.0 that IEEE addition "
    "would turn into +0.0, as XLA's simplifier does. It does not fold constants, reorder "
    "arithmetic, or remove the nodes it bypasses (dce does).",
    {},
    runAlgebraicSimplify};

} // namespace gradstep
