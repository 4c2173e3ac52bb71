// Op timing: the runs of each op, keyed by where it runs. SPDX-License-Identifier: MIT
#include "profile/op_timer.h"

#include "autodiff/context.h"
#include "autodiff/node.h"
#include "graph/graph.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <unordered_map>

namespace gradstep::profile {

namespace {

struct Timings {
    std::mutex mutex;
    std::unordered_map<std::string, std::size_t> index; ///< key (see keyOf) -> position in ops
    std::vector<TimedOp> ops;
};

Timings& timings()
{
    static Timings t;
    return t;
}

std::atomic<std::uint32_t> gThreads{0};

std::uint32_t threadIndex()
{
    thread_local const std::uint32_t index = gThreads.fetch_add(1, std::memory_order_relaxed);
    return index;
}

/// A kernel may call ops itself (composites): only the outermost is timed, so times add up.
thread_local int tDepth = 0;

std::uint64_t nowNs()
{
    const auto since = std::chrono::steady_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(std::chrono::nanoseconds(since).count());
}

/// Where an op runs: what its name is made of.
struct Site {
    Phase phase = Phase::Forward;
    std::string scope; ///< "Net/fc1"; empty at top level
    SourceLocation location;
    std::string_view gradOf; ///< backward: the forward op whose rule ran it
};

Site siteOf(const GraphNode* node, const Graph* graph)
{
    if (node) {
        // Graph autodiff puts a backward node in "Gradients/<forward scope>".
        const std::string& scope = node->identity.scope;
        Site site{node->identity.phase, scope, node->identity.location, {}};
        if (scope == "Gradients")
            site.scope.clear();
        else if (scope.starts_with("Gradients/"))
            site.scope = scope.substr(std::string_view("Gradients/").size());
        const NodeId origin = node->identity.origin;
        if (graph && origin != kNoId && origin < graph->nodes().size())
            site.gradOf = graph->node(origin).name();
        return site;
    }
    const ExecutionContext& ctx = executionContext();
    // A backward rule runs outside the forward op's Cell: the op belongs where its forward op was.
    if (const Node* origin = ctx.backwardOrigin.get(); origin && ctx.phase == Phase::Backward)
        return {ctx.phase, origin->scope ? *origin->scope : std::string(), origin->location,
                origin->op ? origin->op->name : "CustomBprop"};
    return {ctx.phase, ctx.scope ? *ctx.scope : std::string(),
            ctx.locationProvider ? ctx.locationProvider() : SourceLocation{}, {}};
}

std::string keyOf(const OpCall& call, const Site& site)
{
    std::string key(1, static_cast<char>('0' + static_cast<int>(site.phase)));
    key += site.scope;
    key += '\x1f';
    key += site.gradOf;
    key += '\x1f';
    key += call.op.name;
    key += '\x1f';
    key += site.location.toString();
    // A backward rule runs several ops of one type (a MatMul's two gradient MatMuls): their
    // operands tell them apart.
    for (const Tensor& t : call.inputs)
        key += '\x1f' + (t.defined() ? t.shape().toString() : std::string("None"));
    key += '\x1f' + call.attrs.toString();
    return key;
}

std::string fullNameOf(const OpCall& call, const Site& site, std::size_t id)
{
    std::string name = site.phase == Phase::Backward ? "Gradients/Default/" : "Default/";
    if (!site.scope.empty())
        name += site.scope + "/";
    if (!site.gradOf.empty())
        name += "grad" + std::string(site.gradOf) + "/";
    return name + std::string(call.op.name) + "-op" + std::to_string(id);
}

} // namespace

void startOpTiming()
{
    clearOpTimings();
    gOpTimingOn.store(true, std::memory_order_relaxed);
}

void stopOpTiming() { gOpTimingOn.store(false, std::memory_order_relaxed); }

void clearOpTimings()
{
    Timings& t = timings();
    const std::lock_guard lock(t.mutex);
    t.index.clear();
    t.ops.clear();
}

std::vector<TimedOp> opTimings()
{
    Timings& t = timings();
    const std::lock_guard lock(t.mutex);
    return t.ops;
}

void OpTimer::begin()
{
    if (tDepth != 0)
        return;
    tDepth = 1;
    m_exceptions = std::uncaught_exceptions();
    m_startNs = nowNs();
}

void OpTimer::finish() noexcept
{
    const std::uint64_t end = nowNs();
    tDepth = 0;
    if (std::uncaught_exceptions() > m_exceptions)
        return; // the kernel failed: MindSpore records only ops that ran
    try {
        const Site site = siteOf(m_node, m_graph);
        std::string key = keyOf(m_call, site);
        const OpRun run{m_startNs, end - m_startNs, threadIndex()};
        Timings& t = timings();
        const std::lock_guard lock(t.mutex);
        auto [it, added] = t.index.try_emplace(std::move(key), t.ops.size());
        if (added)
            t.ops.push_back(
                TimedOp{fullNameOf(m_call, site, t.ops.size()), std::string(m_call.op.name), {}});
        t.ops[it->second].runs.push_back(run);
    } catch (...) {
        // Out of memory while recording: the profile misses this run; the script goes on.
    }
}

} // namespace gradstep::profile
