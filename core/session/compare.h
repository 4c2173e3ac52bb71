// Side-by-side comparisons: the same script's first training step run twice, under settings A and
// B, from identical weights and data (the same seed), and the per-parameter gradient differences.
// No Python header here. SPDX-License-Identifier: MIT
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
/// Api     the MindSpore 2.x API / the 1.10 API (no mindspore.value_and_grad at the top level).
enum class CompareWhat { HasAux, Mode, GradApi, Api };

/// "has-aux", "mode", "grad-api", "api".
const char* compareWhatName(CompareWhat what);
std::optional<CompareWhat> parseCompareWhat(std::string_view name);

/// One gradient of the step: a weight by its Parameter name, an input as "input<position>".
struct ParamGrad {
    std::string name;
    std::vector<std::int64_t> shape;
    double norm = 0.0; ///< L2 norm
    double sum = 0.0;
    std::vector<double> values; ///< all elements, row-major
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
};

struct Comparison {
    CompareWhat what = CompareWhat::HasAux;
    StepFigures a, b;
    std::vector<ParamDiff> diff; ///< A's gradients in order, then those only B has

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

struct CompareOptions {
    std::uint64_t seed = 0;                           ///< mindspore.set_seed before each run
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
};

/// Runs `script` twice up to the end of its first training step (a depth-0 gradient call and
/// the optimizer update after it, if any, before the next gradient call) and compares. The
/// Python host must be running. A side whose script fails carries the error instead of figures.
Comparison compare(const std::filesystem::path& script, CompareWhat what,
                   const CompareOptions& options = {});

/// The per-parameter diff of two sides (exposed for tests).
std::vector<ParamDiff> diffGradients(const StepFigures& a, const StepFigures& b);

/// {"what", "a": {...}, "b": {...}, "diff": [...]}; non-finite numbers are written as null.
Json comparisonToJson(const Comparison& comparison);
/// The aligned table `gradstep compare` prints.
std::string formatComparison(const Comparison& comparison);

} // namespace gradstep::session
