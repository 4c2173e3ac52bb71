// The pairs of a migration comparison one by one, in the order the computation ran: every
// module/Cell output of a step, the loss, every gradient (in the order backward computes them)
// and every parameter and buffer after the update, each with the capture keys of its two tensors
// and how far apart they are. What a view steps through; the first divergence is one of them.
// SPDX-License-Identifier: MIT
#pragma once

#include "migrate/comparison.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::migrate {

enum class PairStatus {
    Equal,           ///< the same values
    WithinTolerance, ///< apart by no more than the tolerance
    Diverges,        ///< apart by more, or of other shapes
    Unmatched,       ///< one side recorded no tensor for it (the port raised before, say)
};
/// "equal", "within tolerance", "diverges", "unmatched"
const char* pairStatusName(PairStatus status);

struct ComparedPair {
    DivergenceKind kind = DivergenceKind::Forward; ///< Forward, Loss, Gradient, Update or State
    std::string torch, mindspore; ///< module paths, parameter names, or the losses' classes
    /// The modules holding them, where a graph of modules draws the pair ("" for the whole model
    /// and for the loss, which is no module of the model).
    std::string torchModule, msModule;
    std::int64_t call = 1;   ///< Forward: the module's N-th call in the step
    std::int64_t msCall = 1; ///< Forward: the Cell's call compared with it (LayerRow::msCall)
    std::string element;   ///< Forward: a tuple output's tensor by position ("1.0"); empty otherwise
    std::string torchKey, msKey; ///< the tensors in the captures; empty when that side has none
    PairStatus status = PairStatus::Unmatched;
    std::optional<double> maxAbsDiff, relDiff; ///< absent for other shapes and unmatched pairs
    bool transpose = false; ///< MindSpore's tensor is PyTorch's transposed
};

/// The pairs of `step` in execution order, measured as compareCaptures measured them (the
/// result's tolerance and scales): forward outputs in PyTorch's order, the loss, gradients last
/// layer first, then the parameters and buffers after the update.
std::vector<ComparedPair> comparedPairs(const Capture& torch, const Capture& ms, const MigrationResult& result,
                                        std::int64_t step);

/// The index of the pair the result's first divergence names (its step's pairs), or nullopt
/// (no divergence; an error before any pair of the Cell was recorded is matched to that Cell's
/// output pair when there is one).
std::optional<std::size_t> firstDivergencePair(const std::vector<ComparedPair>& pairs, const MigrationResult& result);

} // namespace gradstep::migrate
