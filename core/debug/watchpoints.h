// Watchpoints: anomaly conditions modelled on MindInsight's debugger (SEMANTICS.md section 8),
// checked on every recorded node and, for parameter conditions, on the step summary.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/recorder.h"
#include "debug/stat_condition.h"

#include <string>
#include <string_view>
#include <vector>

namespace gradstep::debug {

struct Watchpoint {
    enum class Kind : std::uint8_t {
        NanInf,               ///< any output (or weight after the update) holds NaN or +-Inf
        Above,                ///< an output's `stat` > threshold
        Below,                ///< an output's `stat` < threshold
        GradientVanishing,    ///< a gradient's L2 norm < threshold (backward outputs, step grads)
        GradientExploding,    ///< a gradient's L2 norm > threshold, or NaN/Inf in it
        WeightUnchanged,      ///< relative weight change of the update <= threshold
        WeightChangeAbove,    ///< relative weight change > threshold
        WeightChangeBelow,    ///< relative weight change < threshold
        ActivationSaturation, ///< share of Sigmoid/Tanh outputs within 0.01 of their limits > threshold
        DeadRelu,             ///< share of zeros in a ReLU's output > threshold
        /// a float16/bfloat16 output overflowed to inf from finite inputs, or a value nonzero in
        /// float32 underflowed to zero (NodeRecord::halfPrecision; Note [Half-precision overflow])
        HalfPrecisionOverflow,
    };

    int id = 0;
    bool enabled = true;
    int hitCount = 0;
    Kind kind = Kind::NanInf;
    Stat stat = Stat::MaxAbs; ///< Above and Below
    double threshold = 0.0;

    /// The command-line text: "nan", "vanishing=1e-07", "above:max=1000".
    std::string toString() const;
};

struct WatchHit {
    int watchpointId = 0;
    Watchpoint::Kind kind = Watchpoint::Kind::NanInf;
    std::int64_t step = 0;
    std::uint64_t recordSeq = 0; ///< 0 for a parameter check at the end of a step
    std::string node;            ///< the record's full name, or the parameter's name
    SourceLocation location;
    std::string tensor;          ///< "#12:0", "param:fc.weight", "grad of param:fc.weight"
    std::string quantity;        ///< what was compared: "l2", "nonfinite_count", "weight_change", ...
    double value = 0.0;
    double threshold = 0.0;
    std::string message;         ///< one sentence naming all of the above
};

/// Record conditions; one hit per output that meets it.
std::vector<WatchHit> checkRecord(const Watchpoint& wp, const NodeRecord& record);
/// Parameter conditions on a finished step (vanishing, exploding, weight change, NaN in weights).
std::vector<WatchHit> checkStep(const Watchpoint& wp, const StepSummary& step);

/// One item: nan (or inf), overflow, above[:STAT]=X, below[:STAT]=X, vanishing[=1e-7], exploding[=1e3],
/// unchanged[=1e-8], change_above=X, change_below=X, saturation[=0.9], dead_relu[=0.9].
Watchpoint parseWatchpoint(std::string_view item);
/// A comma-separated list of items, as --watch takes it. ValueError naming the bad item.
std::vector<Watchpoint> parseWatchpoints(std::string_view list);

class WatchpointSet {
public:
    int add(Watchpoint wp);
    /// Adds every item of a --watch list; returns their ids.
    std::vector<int> add(std::string_view list);
    bool remove(int id);
    bool setEnabled(int id, bool enabled);
    void clear() { m_watchpoints.clear(); }
    const std::vector<Watchpoint>& all() const { return m_watchpoints; }

    /// Hits of every enabled watchpoint, in the order added; counts them.
    std::vector<WatchHit> check(const NodeRecord& record);
    std::vector<WatchHit> checkStep(const StepSummary& step);

private:
    std::vector<Watchpoint> m_watchpoints;
    int m_nextId = 1;
};

} // namespace gradstep::debug
