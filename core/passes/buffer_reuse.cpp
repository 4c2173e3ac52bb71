// buffer_reuse: memory planning. Assigns each intermediate value a buffer slot so that values
// whose lifetimes do not overlap share storage, and reports the bytes before and after.
// SPDX-License-Identifier: MIT
#include "graph/parallel_groups.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

#include <algorithm>
#include <numeric>

namespace gradstep {

namespace {

struct AliasClasses {
    std::vector<ValueId> parent;
    ValueId find(ValueId v)
    {
        while (parent[v] != v)
            v = parent[v] = parent[parent[v]];
        return v;
    }
    void unite(ValueId a, ValueId b) { parent[find(b)] = find(a); }
};

// Kernels that set their own outputs (views such as Reshape) and control flow (a branch may
// return its input) can hand back storage of any input: such outputs join their inputs' class.
bool mayAlias(const GraphNode& node)
{
    return node.kind == NodeKind::If || node.kind == NodeKind::While
           || node.kind == NodeKind::WhileGrad || node.kind == NodeKind::CustomBprop
           || (node.kind == NodeKind::Op && node.op->allocatesOutputs);
}

// The storage a class of values shares: allocated once by its owner's node, alive until the
// last node using any value of the class. Times are plan steps (planSteps): the nodes of a
// parallel group may run at once, so a value read in such a group and one written in it never
// share.
struct Lifetime {
    ValueId owner = kNoId;
    int owners = 0;
    bool plannable = true;
    std::uint32_t start = 0;
    std::uint32_t end = 0;
    std::int64_t bytes = 0;
};

std::vector<Lifetime> lifetimes(const Graph& g, AliasClasses& classes)
{
    const auto& values = g.values();
    const std::vector<std::uint32_t> step = planSteps(g);
    classes.parent.resize(values.size());
    std::iota(classes.parent.begin(), classes.parent.end(), ValueId{0});
    for (const GraphNode& node : g.nodes())
        if (mayAlias(node))
            for (ValueId out : node.outputs)
                for (ValueId in : node.inputs)
                    classes.unite(in, out);
    std::vector<Lifetime> classesOf(values.size());
    for (const GraphValue& v : values) {
        Lifetime& life = classesOf[classes.find(v.id)];
        if (v.kind != ValueKind::NodeOutput) {
            life.plannable = false; // inputs and constants own their storage
        } else if (!mayAlias(g.node(v.node))) {
            life.owner = v.id;
            ++life.owners;
            life.start = step[v.node];
            life.bytes = v.bytes();
        }
    }
    for (const GraphNode& node : g.nodes())
        for (ValueId in : node.inputs) {
            Lifetime& life = classesOf[classes.find(in)];
            life.end = std::max(life.end, step[node.id]);
        }
    for (ValueId out : g.outputs())
        classesOf[classes.find(out)].plannable = false; // returned to the caller
    for (Lifetime& life : classesOf) {
        // A dead value still occupies its buffer while its node writes it.
        life.end = std::max(life.end, life.start);
        life.plannable = life.plannable && life.owners == 1 && life.bytes > 0;
    }
    return classesOf;
}

struct Plan {
    std::vector<std::int32_t> slotOf; ///< per owner value, -1 when unplanned
    std::vector<std::int64_t> slotBytes;
    std::vector<std::uint32_t> busyUntil;
    std::int64_t naiveBytes = 0;
    std::int64_t livePeak = 0;
};

// A free slot for `life`: the smallest one that fits, else the largest (grown), else none.
int pickSlot(const Plan& plan, const Lifetime& life)
{
    int best = -1;
    auto better = [&](std::size_t s) {
        if (best < 0)
            return true;
        const std::int64_t have = plan.slotBytes[static_cast<std::size_t>(best)],
                           mine = plan.slotBytes[s];
        const bool fits = mine >= life.bytes, bestFits = have >= life.bytes;
        return fits != bestFits ? fits : (fits ? mine < have : mine > have);
    };
    for (std::size_t s = 0; s < plan.busyUntil.size(); ++s)
        if (plan.busyUntil[s] < life.start && better(s))
            best = static_cast<int>(s);
    return best;
}

// Greedy assignment in order of definition (linear-scan allocation).
Plan assign(const std::vector<Lifetime>& classes, std::size_t valueCount)
{
    Plan plan{std::vector<std::int32_t>(valueCount, -1), {}, {}, 0, 0};
    std::vector<const Lifetime*> order;
    for (const Lifetime& life : classes)
        if (life.plannable)
            order.push_back(&life);
    std::stable_sort(order.begin(), order.end(),
                     [](const Lifetime* a, const Lifetime* b) { return a->start < b->start; });
    std::vector<const Lifetime*> live;
    std::int64_t liveBytes = 0;
    for (const Lifetime* life : order) {
        plan.naiveBytes += life->bytes;
        std::erase_if(live, [&](const Lifetime* l) {
            return l->end < life->start && (liveBytes -= l->bytes, true);
        });
        live.push_back(life);
        liveBytes += life->bytes;
        plan.livePeak = std::max(plan.livePeak, liveBytes);
        int slot = pickSlot(plan, *life);
        if (slot < 0) {
            slot = static_cast<int>(plan.busyUntil.size());
            plan.busyUntil.push_back(0);
            plan.slotBytes.push_back(0);
        }
        const auto s = static_cast<std::size_t>(slot);
        plan.busyUntil[s] = life->end;
        plan.slotBytes[s] = std::max(plan.slotBytes[s], life->bytes);
        plan.slotOf[life->owner] = slot;
    }
    return plan;
}

PassResult runBufferReuse(const Graph& graph)
{
    AliasClasses classes;
    const Plan plan = assign(lifetimes(graph, classes), graph.values().size());
    GraphRewriter rewriter(graph);
    for (const GraphNode& node : graph.nodes())
        rewriter.copy(node);
    Graph result = rewriter.finish();
    bool changed = false;
    for (const GraphValue& v : graph.values()) {
        const std::int32_t slot = plan.slotOf[v.id];
        result.setBuffer(rewriter.map(v.id), slot);
        changed = changed || slot != v.buffer;
    }
    const std::int64_t planned =
        std::accumulate(plan.slotBytes.begin(), plan.slotBytes.end(), std::int64_t{0});
    PassResult r{std::move(result), changed, "", {}};
    r.summary = "peak bytes " + std::to_string(plan.naiveBytes) + " -> " + std::to_string(planned)
                + " in " + countNoun(static_cast<std::int64_t>(plan.slotBytes.size()), "buffer")
                + " (live peak " + std::to_string(plan.livePeak) + ")";
    r.stats = {{"bytes_without_reuse", plan.naiveBytes},
               {"bytes_planned", planned},
               {"buffers", static_cast<std::int64_t>(plan.slotBytes.size())},
               {"live_peak_bytes", plan.livePeak}};
    return r;
}

} // namespace

const PassInfo kBufferReusePass{
    "buffer_reuse",
    "Memory planning: intermediates with disjoint lifetimes share buffers",
    "Computes each intermediate value's lifetime (from the node defining it to the last node using "
    "it, extended over views that may alias it; the nodes of a parallel group, which may run at "
    "once, count as one step) and assigns buffer slots greedily, reusing a freed "
    "slot of the closest size. The executor then allocates each slot once and reuses it across "
    "runs. The report gives the bytes every intermediate would take in its own buffer, the planned "
    "bytes, and the live peak (the lower bound any plan can reach). Graph inputs, constants, "
    "outputs (and anything that may alias them), outputs of views and of control-flow "
    "nodes, and values inside subgraphs are not planned. Run it last: any later pass drops the "
    "plan.",
    {},
    runBufferReuse,
    false};

} // namespace gradstep
