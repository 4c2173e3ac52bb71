// Side-by-side comparisons: a script run twice, under settings A and B (or two scripts, or a run
// against a saved report), from identical weights and data (the same seed): the first training
// step's per-parameter gradient differences, and per-step curves over N steps with the first step
// where the runs part. No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"
#include "run/run_overrides.h"
#include "run/script_output.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep::session {

/// What differs between the two runs. A / B:
/// HasAux  has_aux forced on / forced off;
/// Mode    PyNative / graph;
/// GradApi value_and_grad / the grad-only fallback (`loss = fn(...)`, then `grad(fn)(...)`);
/// Api     the MindSpore 2.x API / the 1.10 API (no mindspore.value_and_grad at the top level);
/// Scripts two scripts under the same settings;
/// Saved   the script against a saved run (a `gradstep run --report` file);
/// FiniteDifferences  the first step's analytic gradients / float64 central differences of
///         the same call at sampled elements (one run: see compare_fd.cpp);
/// Amp     float32 everywhere (O0) / the script's mixed precision, or amp's O2 when it has none
///         (Note [The amp what-if], python/host/run_amp.cpp);
/// Ranks   N data-parallel ranks (rank 0's view) / one rank on the full batch (Note [The ranks
///         what-if], compare_ranks.cpp).
enum class CompareWhat { HasAux, Mode, GradApi, Api, Scripts, Saved, FiniteDifferences, Amp, Ranks };

/// "has-aux", "mode", "grad-api", "api", "scripts", "saved", "fd", "amp", "ranks".
const char* compareWhatName(CompareWhat what);
/// One of the what-if switches (has-aux, mode, grad-api, api, amp, ranks) or fd; scripts and
/// saved are not settings.
std::optional<CompareWhat> parseCompareWhat(std::string_view name);

/// One gradient of the step: a weight by its Parameter name, an input as "input<position>".
struct ParamGrad {
    std::string name;
    std::vector<std::int64_t> shape;
    double norm = 0.0; ///< L2 norm
    double sum = 0.0;
    std::vector<double> values; ///< all elements, row-major (or those at `indices`)
    /// Finite differences: the row-major indices of the elements `values` holds (norm and sum
    /// are theirs). Empty: `values` holds every element.
    std::vector<std::int64_t> indices;
};

/// One parameter's figures at one step of a curve.
struct ParamNorms {
    std::string name;
    double gradNorm = 0.0;
    double valueNorm = 0.0; ///< the parameter's L2 norm when its gradient was computed
};

/// One training step of a run's curve (Note [what a step is] in compare.cpp).
struct CurvePoint {
    std::int64_t step = 0; ///< 1-based
    std::optional<double> loss;
    std::optional<double> learningRate; ///< what the step's first optimizer update used
    std::vector<ParamNorms> params;     ///< the weights; "input<position>" without weights
};

/// What one run of the first step gave.
struct StepFigures {
    std::string label; ///< the setting, e.g. "has_aux on"
    /// The step's first output: the value's first Tensor when the API returns one; for grad-only
    /// calls the loss computed inside the call (see compare.cpp); null when none was observable
    /// or it is not one element.
    std::optional<double> loss;
    /// How many times the step ran the forward of the differentiated function (compare.cpp).
    int forwardPasses = 0;
    /// The step's gradient call returned the function's value with the gradients
    /// (value_and_grad, TrainOneStepCell), not the gradients alone (grad, GradOperation).
    bool returnedValue = false;
    std::int64_t forwardNodes = 0;
    std::int64_t backwardNodes = 0;
    std::int64_t updateNodes = 0;
    double seconds = 0.0;    ///< the step: from its first forward read of a weight to its end
    double runSeconds = 0.0; ///< the whole run, up to the end of the step
    std::vector<ParamGrad> params;
    /// Set when the run gave no step: the script failed before its first gradient call finished
    /// ("AttributeError: module 'mindspore' has no attribute 'value_and_grad'"), made no gradient
    /// call, or timed out. The figures above are then meaningless.
    std::optional<std::string> error;
    std::optional<run::SourceSpan> errorLocation;
    /// The script failed after the step's gradients were taken (e.g. it could not unpack what a
    /// forced has_aux returned); the figures stand.
    std::optional<std::string> laterError;
    /// Read from a saved run report, which keeps the loss, the gradients' norms and the steps:
    /// the counts and seconds above are unknown.
    bool saved = false;
    /// Every step the run completed, up to the steps asked for (CompareOptions::steps); a run
    /// that failed at step 5 keeps its first 4.
    std::vector<CurvePoint> steps;
    /// CompareSide::finiteDifferences: the first step's gradients by float64 central differences
    /// at sampled elements (ParamGrad::indices), in the order of `params`; or why there are none.
    std::vector<ParamGrad> finiteDifferences;
    std::optional<std::string> finiteDifferencesError;
    /// When the side started (its run; a side run in a process of its own: that process's work,
    /// interpreter start included) and ended, in seconds since the epoch (the wall clock, which
    /// two processes share): whether two sides ran at the same time shows here. Not in the report.
    double startedAt = 0.0, endedAt = 0.0;

    std::int64_t nodes() const { return forwardNodes + backwardNodes + updateNodes; }
};

enum class Verdict { Equal, Close, Different, Missing };
/// "equal" (relative difference <= 1e-6), "close" (<= 1e-3), "different", "missing" (one side
/// has no such gradient, or shapes differ).
const char* verdictName(Verdict verdict);

struct ParamDiff {
    std::string name;
    std::optional<double> normA, normB;
    std::optional<double> maxAbsDiff;
    std::optional<double> relDiff; ///< |A - B| / max(|A|, |B|) in the L2 norm; 0 when both are 0
    Verdict verdict = Verdict::Missing;
    /// The element where A and B differ most, as "[1, 2]" (a 0-D tensor: "[]"), with its two
    /// values; set when the gradients were compared element by element.
    std::optional<std::string> worstElement;
    std::optional<double> worstA, worstB;
};

/// The first step where two curves part: its loss, or a parameter's gradient norm, differs by
/// more than the tolerance (relative to the larger magnitude). The loss counts first, as it is
/// computed before the gradients.
struct Divergence {
    std::int64_t step = 0;
    enum class Kind { Loss, Gradient } kind = Kind::Loss;
    std::string name; ///< the parameter (Gradient); empty for Loss
    std::optional<double> a, b; ///< the differing values
};

/// "loss", "gradient".
const char* divergenceKindName(Divergence::Kind kind);

struct Comparison {
    CompareWhat what = CompareWhat::HasAux;
    StepFigures a, b;
    std::vector<ParamDiff> diff; ///< A's gradients in order, then those only B has
    std::int64_t steps = 1;      ///< the steps asked for
    double tolerance = 1e-3;     ///< for firstDivergence
    /// Over the steps both sides completed; null when they never part (or a side gave none).
    std::optional<Divergence> firstDivergence;

    bool interrupted = false; ///< options.cancelled stopped it
    /// A run timed out blocked and was given up on (python::RunResult::abandoned): the process
    /// must end without finalising Python.
    bool abandoned = false;

    /// Both runs gave a step.
    bool ok() const { return !a.error && !b.error; }
};

/// One sentence saying what the comparison's difference means, or why flipping the setting
/// changed nothing (a script that already takes value and gradients apart, a function with one
/// output under has_aux); empty when a side gave no step.
std::string explainComparison(const Comparison& c);

struct CompareSide;

struct CompareOptions {
    std::uint64_t seed = 0;                           ///< mindspore.set_seed before each run
    /// Training steps each side runs: the first gives the figures, all of them the curves.
    std::int64_t steps = 1;
    /// Relative difference beyond which two steps part (Comparison::firstDivergence): the
    /// table's "close" threshold by default.
    double tolerance = 1e-3;
    std::chrono::milliseconds timeout{std::chrono::minutes(5)}; ///< per run; 0: none
    std::vector<std::string> args;                    ///< sys.argv[1:]
    run::OutputCallback output;                    ///< what the scripts print; null drops it
    /// Run side A once more before the two measured runs and drop it: the first run in a process
    /// pays one-time costs (lazy imports, the allocator, BLAS buffers) that would otherwise make
    /// A's seconds look several times slower than B's on small steps.
    bool warmUp = true;
    /// Polled every 100 ms while a side runs; true stops it (the side reports "interrupted")
    /// and skips the runs still to come.
    std::function<bool()> cancelled;
    /// The settings both sides start from (the GUI's what-if switches); the compared setting
    /// then takes A's and B's values. The seed above wins over base.seed.
    run::RunOverrides base;
    /// The API profile both sides start from, unless the API itself is compared.
    std::string baseApiProfile = "2.x";
    /// Called on the caller's thread before each run: the side's label, the run's number from 1
    /// and the number of runs (3 with the warm-up).
    std::function<void(const std::string& label, int run, int runs)> runStarted;
    /// CompareWhat::Ranks: the ranks of side A (2 or more).
    int ranks = 2;
    /// Runs a side on side.ranks processes (mpirun) and returns rank 0's figures, setting
    /// `interrupted` when options.cancelled stopped it. The application provides it (it knows how
    /// to start itself under mpirun); null: a ranks side is unavailable, and says so.
    std::function<StepFigures(const CompareSide& side, const CompareOptions& options, bool& interrupted)>
        runOnRanks;
};

/// One side of a comparison: a script and the settings it runs under.
struct CompareSide {
    std::string label;
    std::filesystem::path script;
    run::RunOverrides overrides;
    std::string apiProfile = "2.x";
    std::optional<std::string> unavailable; ///< the setting cannot run in this build
    /// Also take the first step's gradients by finite differences (StepFigures::finiteDifferences).
    bool finiteDifferences = false;
    /// Run on this many data-parallel ranks (CompareOptions::runOnRanks); 0: in this process.
    int ranks = 0;
    /// Every batch takes this many times its batch_size rows (data::setBatchScale): the ranks
    /// what-if's full-batch side.
    std::int64_t batchScale = 1;
    /// Take each step's weight gradients from its optimizer update (what the optimizer received:
    /// after a data-parallel all-reduce) instead of from the gradient call; gradients of weights
    /// the update does not see stay the call's.
    bool optimizerGradients = false;
};

/// The two sides of a what-if switch on one script (labels "has_aux on" / "has_aux off", ...).
std::pair<CompareSide, CompareSide> settingSides(const std::filesystem::path& script,
                                                 CompareWhat what, const CompareOptions& options);
/// Two scripts under the same settings, labelled by their file names (by their paths when the
/// names are the same).
std::pair<CompareSide, CompareSide> scriptSides(const std::filesystem::path& a,
                                                const std::filesystem::path& b,
                                                const CompareOptions& options);

/// Runs one side up to the end of its options.steps-th training step (a depth-0 gradient call
/// and the optimizer update after it, if any, before the next gradient call). The Python host
/// must be running. A side whose script fails before its first step carries the error instead
/// of figures; `interrupted` is set when options.cancelled stopped it, `abandoned` when it timed
/// out blocked and was given up on.
StepFigures runSide(const CompareSide& side, const CompareOptions& options, bool& interrupted,
                    bool& abandoned);

/// Runs the sides one after the other in this process (side A once more first when
/// options.warmUp) and compares.
Comparison compareSides(const CompareSide& a, const CompareSide& b, CompareWhat what,
                        const CompareOptions& options);

/// Runs `script` under the two settings of `what` and compares (compareSides).
Comparison compare(const std::filesystem::path& script, CompareWhat what,
                   const CompareOptions& options = {});

/// Fills the diff of the first step and the first divergence of the curves from c.a and c.b
/// (compareSides does; a caller that ran the sides elsewhere calls it).
void concludeComparison(Comparison& c);

/// The per-parameter diff of two sides (exposed for tests). A gradient known by its norm only
/// (a saved run keeps no values) is compared by its norm.
std::vector<ParamDiff> diffGradients(const StepFigures& a, const StepFigures& b);

/// The first step where the curves part by more than `tolerance`; null when they never do.
std::optional<Divergence> firstDivergence(const std::vector<CurvePoint>& a,
                                          const std::vector<CurvePoint>& b, double tolerance);

/// One side as JSON: the report's form (the first five gradient elements, non-finite numbers as
/// null), or with `wire` the JSON part of the wire form (non-finite numbers kept as strings, each
/// gradient's element count; sideToWire).
Json sideToJson(const StepFigures& figures, bool wire);
/// The inverse of sideToJson, without the gradient elements; JsonError or ValueError on a
/// malformed document.
StepFigures sideFromJson(const Json& side);
/// The form a side run in another process hands back: its JSON line, then every gradient element
/// of the first step as raw doubles (Note [the wire's gradient block] in compare_wire.cpp).
std::string sideToWire(const StepFigures& figures);
/// The inverse of sideToWire; JsonError or ValueError on a malformed or truncated one.
StepFigures sideFromWire(std::string_view wire);
/// A saved run: a `gradstep run --report` document ({"script", "steps": [...]}) as a side whose
/// first step's gradients are known by their norms. ValueError naming what is missing.
StepFigures sideFromRunReport(const Json& report, const std::string& label);

/// {"what", "a": {..., "steps": [{"step", "loss", "lr", "params": [{"name", "grad_norm",
/// "value_norm"}]}]}, "b": {...}, "diff": [...], "steps", "tolerance", "first_divergence": null |
/// {"step", "kind", "name"}}; non-finite numbers are written as null.
Json comparisonToJson(const Comparison& comparison);
/// The aligned table `gradstep compare` prints (with the per-step table and the first
/// divergence when more than one step was compared).
std::string formatComparison(const Comparison& comparison);

} // namespace gradstep::session
