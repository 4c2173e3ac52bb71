// The pass pipeline. SPDX-License-Identifier: MIT
#include "passes/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace gradstep {

std::vector<std::string_view> defaultPipeline()
{
    std::vector<std::string_view> names;
    for (const PassInfo* pass : passRegistry())
        names.push_back(pass->name);
    return names;
}

namespace {
void checkOrder(std::span<const std::string_view> passes)
{
    for (std::size_t i = 0; i < passes.size(); ++i) {
        const PassInfo* pass = findPass(passes[i]);
        if (!pass)
            throw ValueError("unknown pass '" + std::string(passes[i]) + "'");
        for (std::string_view needed : pass->prerequisites)
            if (std::find(passes.begin(), passes.begin() + static_cast<std::ptrdiff_t>(i), needed)
                == passes.begin() + static_cast<std::ptrdiff_t>(i))
                throw ValueError("pass '" + std::string(pass->name) + "' needs '"
                                 + std::string(needed) + "' to run before it");
    }
}
} // namespace

PipelineResult runPipeline(const Graph& graph, std::span<const std::string_view> passes,
                           bool keepIntermediates)
{
    checkOrder(passes);
    PipelineResult result{graph, {}};
    for (std::string_view name : passes) {
        const PassInfo* pass = findPass(name);
        const auto start = std::chrono::steady_clock::now();
        PassResult r;
        try {
            r = runPassEverywhere(*pass, result.graph);
        } catch (const RuntimeError& e) {
            // A pass's internal error names the pass, so a report points at the code at fault.
            throw RuntimeError(std::string(e.what()) + " (in the '" + std::string(pass->name) + "' pass)");
        }
        const std::chrono::duration<double, std::milli> elapsed =
            std::chrono::steady_clock::now() - start;
        result.graph = std::move(r.graph);
        PipelineStep step{pass->name,         r.changed,       std::move(r.summary),
                          std::move(r.stats), elapsed.count(), Graph()};
        if (keepIntermediates)
            step.graph = result.graph;
        result.steps.push_back(std::move(step));
    }
    return result;
}

std::string PipelineResult::report() const
{
    std::string s;
    for (const PipelineStep& step : steps) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.2f", step.milliseconds);
        s += std::string(step.pass) + ": " + step.summary + " (" + ms + " ms)\n";
    }
    return s;
}

} // namespace gradstep
