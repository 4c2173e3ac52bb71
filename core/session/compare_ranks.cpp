// Note [The ranks what-if]: data parallel is right when the step that N ranks take together is the
// step one process would take on the union of their batches. Side A runs the script on N ranks
// (CompareOptions::runOnRanks: the application starts them under mpirun) and reports rank 0;
// side B runs it as a world of one, where get_group_size() is 1 so the script reads the whole data
// set unsharded, with every batch N times as large (CompareSide::batchScale): shard k of N reads
// rows k, k + N, ... of the same shuffled order, so the N first batches of A hold exactly the
// rows of B's first batch. Both sides take the gradients the optimizer received, which on A are the
// all-reduced ones. With a mean loss and gradients_mean the two are equal up to float32 rounding;
// with gradients_mean off the all-reduce sums, and A is N times B. The losses are not compared:
// A's is rank 0's loss on its own shard. A script that computes its batch size as a global size
// divided by get_group_size() already reads the full batch on one rank, and B's scaling makes it
// N times too large: the verdict then says the gradients differ.
// SPDX-License-Identifier: MIT
#include "session/compare_ranks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep::session {

namespace {

/// float32 sums over a batch in a different order: 1e-5 relative, as the tolerance.
constexpr double kFloat32Tolerance = 1e-5;

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

} // namespace

std::pair<CompareSide, CompareSide> ranksSides(const std::filesystem::path& script, const CompareOptions& options)
{
    CompareSide a, b;
    a.script = b.script = script;
    a.overrides = b.overrides = options.base;
    a.apiProfile = b.apiProfile = options.baseApiProfile;
    const int n = std::max(2, options.ranks);
    a.label = std::to_string(n) + " ranks (rank 0)";
    a.ranks = n;
    a.optimizerGradients = true;
    if (!options.runOnRanks)
        a.unavailable = "this comparison cannot start ranks here (it needs gradstep's own launcher and Open MPI's mpirun)";
    b.label = "1 rank, full batch (" + std::to_string(n) + " x each batch)";
    b.batchScale = n;
    b.optimizerGradients = true;
    return {a, b};
}

int ranksOfLabel(const std::string& label)
{
    int n = 0;
    return std::sscanf(label.c_str(), "%d ranks", &n) == 1 ? n : 0;
}

std::string explainRanks(const Comparison& c)
{
    const int n = std::max(2, ranksOfLabel(c.a.label));
    if (c.diff.empty())
        return "The step had no gradients to compare.";
    double worst = 0.0, worstSummed = 0.0;
    bool missing = false;
    for (const ParamDiff& d : c.diff) {
        if (d.verdict == Verdict::Missing || !d.normA || !d.normB) {
            missing = true;
            continue;
        }
        worst = std::max(worst, d.relDiff.value_or(0.0));
        // Summed instead of averaged: A = N x B, parameter by parameter.
        const double scaled = *d.normB * n, larger = std::max(*d.normA, scaled);
        worstSummed = std::max(worstSummed, larger > 0.0 ? std::abs(*d.normA - scaled) / larger : 0.0);
    }
    const std::string ranks = std::to_string(n) + " ranks";
    if (missing)
        return "The " + ranks + " and the single rank did not update the same parameters (a gradient is missing "
               "on one side), so their steps cannot be the same.";
    if (worst <= kFloat32Tolerance)
        return "Equal within float32 tolerance (largest relative difference " + number(worst) + " <= "
               + number(kFloat32Tolerance) + "): the " + ranks + " together take the full batch's step, their "
               "gradients averaged by the all-reduce (gradients_mean).";
    if (worstSummed <= 1e-4)
        return "The " + ranks + "' gradients are " + std::to_string(n) + " times the full batch's (sum = "
               + std::to_string(n) + " x mean): the all-reduce sums them because gradients_mean is off. Set "
               "gradients_mean=True in set_auto_parallel_context, or the step is " + std::to_string(n)
               + " times too large.";
    return "The " + ranks + "' step is not the full batch's (largest relative difference " + number(worst)
           + "): the gradients may not be all-reduced (no DistributedGradReducer, or a data-parallel mode the "
             "optimizer does not see), the ranks may read rows that are not their part of the batch (num_shards "
             "/ shard_id), or the script divides a global batch size by the ranks, which the single rank already "
             "reads whole.";
}

} // namespace gradstep::session
