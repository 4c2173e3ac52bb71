// Wall time of every kernel the dispatcher runs while a Profiler is on (mindspore.Profiler's CPU op
// timing). The kernel call sites (callOp, the graph executor) hold an OpTimer: with timing off it
// costs one load of a flag and one well-predicted branch, so it stays in every build.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "ops/op_def.h"

namespace gradstep {
class Graph;
struct GraphNode;
}

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace gradstep::profile {

inline std::atomic<bool> gOpTimingOn{false};

inline bool opTimingOn() noexcept { return gOpTimingOn.load(std::memory_order_relaxed); }

/// One run of an op: steady-clock start in ns, duration in ns, the index of the thread that ran
/// it (0: the first thread that recorded, usually the script's).
struct OpRun {
    std::uint64_t startNs = 0;
    std::uint64_t durationNs = 0;
    std::uint32_t thread = 0;
};

/// One op of the script: the same op type at the same scope, source position, phase and input
/// shapes is the same op from step to step, so its runs collect here.
struct TimedOp {
    /// "Default/LeNet5/fc1/MatMul-op3";
    /// backward: "Gradients/Default/LeNet5/fc1/gradMatMul/MatMul-op9"
    std::string fullName;
    std::string type;     ///< "MatMul"
    std::vector<OpRun> runs;
};

/// Clears what was recorded and turns timing on.
void startOpTiming();
void stopOpTiming();
void clearOpTimings();
/// The ops timed since the last start, in the order of their first run.
std::vector<TimedOp> opTimings();

class OpTimer {
public:
    /// `node`: the node of `graph` being run, whose identity names the op; null in PyNative, where
    /// the thread's ExecutionContext does (scope, source position, and in a backward rule the
    /// forward op it belongs to).
    OpTimer(const OpCall& call, const GraphNode* node, const Graph* graph = nullptr)
        : m_call(call), m_node(node), m_graph(graph)
    {
        if (opTimingOn()) [[unlikely]]
            begin();
    }
    ~OpTimer()
    {
        if (m_startNs != 0) [[unlikely]]
            finish();
    }
    OpTimer(const OpTimer&) = delete;
    OpTimer& operator=(const OpTimer&) = delete;

private:
    void begin();
    void finish() noexcept;

    const OpCall& m_call;
    const GraphNode* m_node;
    const Graph* m_graph;
    std::uint64_t m_startNs = 0; ///< 0: not timed (timing off, or an op run inside a timed kernel)
    int m_exceptions = 0;
};

} // namespace gradstep::profile
