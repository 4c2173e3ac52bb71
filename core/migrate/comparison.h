// The result of a migration comparison (what `gradstep migrate` prints and writes, and what a
// view draws) and how two captures are compared into it. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/capture.h"
#include "migrate/matching.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::migrate {

enum class DivergenceKind { Shape, Forward, Loss, Gradient, Update, State, Error };
/// "shape", "forward", "loss", "gradient", "update", "state", "error"
const char* divergenceKindName(DivergenceKind kind);

struct Divergence {
    std::string torch;     ///< module path (or parameter name, or the loss's class)
    std::string mindspore; ///< Cell path (or Parameter name, or the loss's class)
    DivergenceKind kind = DivergenceKind::Forward;
    std::int64_t step = 1;
    std::optional<double> maxAbsDiff, relDiff; ///< absent for shape and error divergences
    std::string explanation;
};

/// One forward output pair of the first step, in PyTorch's execution order.
struct LayerRow {
    std::string torch, mindspore;
    std::string torchClass, msClass;
    std::int64_t call = 1; ///< the module's N-th call in the step (capture's "forward" entries)
    std::string element;   ///< a tuple output's tensor by position ("1.0"); empty for a tensor output
    std::optional<double> forwardMaxAbsDiff; ///< absent when the shapes differ or one side is missing
    std::vector<std::int64_t> shapeTorch, shapeMindspore;
    bool diverges = false;
    /// The Cell's call compared with PyTorch's `call`: the same unless the two sides call the
    /// module a different number of times (one ReLU reused in PyTorch, ops.relu in the port).
    std::int64_t msCall = 1;
};

struct ParamRow {
    std::string torch, mindspore;
    std::vector<std::int64_t> shape;
    bool buffer = false;
    std::optional<double> gradMaxAbsDiff, updateMaxAbsDiff; ///< first step; absent when not recorded
    bool transpose = false;            ///< MindSpore holds the 2-D tensor transposed (ParamPair)
    std::string torchModule, msModule; ///< the modules holding them (a view draws them there)
};

/// Summary of one initial tensor (--no-copy-weights).
struct Distribution {
    double mean = 0, std = 0, min = 0, max = 0;
};

struct InitialRow {
    std::string torch, mindspore;
    Distribution torchStats, msStats;
    std::string torchInitialiser, msInitialiser;
    bool differs = false;
};

struct MigrationResult {
    bool diverges = false;
    std::optional<Divergence> firstDivergence;
    std::vector<LayerRow> layers;
    std::vector<ParamRow> params;
    std::vector<std::string> unmatchedTorch, unmatchedMindspore;
    std::optional<double> lossTorch, lossMindspore; ///< first step (a mean when not a scalar)
    std::vector<InitialRow> initial; ///< filled when weights were not copied
    bool weightsCopied = true;
    std::int64_t steps = 0;          ///< steps both sides recorded
    std::vector<std::string> notes;  ///< what limited the comparison
    /// What the differences were measured with: the relative tolerance and the magnitudes that
    /// near-zero tensors are measured against (difference()'s `scale`) for forward outputs,
    /// gradients and parameters after the update, so a view measures any pair as this did.
    double tolerance = 1e-5;
    double forwardScale = 0, gradScale = 0, paramScale = 0;
};

struct CompareOptions {
    double tolerance = 1e-5; ///< relative, scaled to the magnitude of the values compared
    bool weightsCopied = true;
    std::map<std::string, std::string> userMap;
};

/// Compares what the two sides recorded, step by step in execution order (forward outputs, loss,
/// gradients, updates, buffers); the first pair beyond tolerance is the first divergence.
/// `msError` is the port's error message when it raised (its own capture says where).
MigrationResult compareCaptures(const Capture& torch, const Capture& ms, const CompareOptions& options,
                                const std::string& msError = {});

/// max |a - b| and that relative to the magnitude: max |a| (or, for values all near zero, a
/// tenth of `scale`, the largest magnitude of such tensors in the model).
struct Difference {
    double maxAbs = 0;
    double relative = 0;
};
Difference difference(std::span<const double> a, std::span<const double> b, bool transpose2d,
                      const std::vector<std::int64_t>& shapeA, double scale);
Distribution distributionOf(std::span<const double> values);

} // namespace gradstep::migrate
