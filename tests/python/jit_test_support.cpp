// Helpers shared by the graph-mode tests (see jit_test_support.h). SPDX-License-Identifier: MIT
#include "tests/python/jit_test_support.h"

#include "graph/text_format.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace gradstep::python::test {

void Recorder::gradCallFinished(const GradCallEvent& e)
{
    if (grads.size() >= kSteps)
        return;
    std::vector<std::vector<double>> step;
    for (const Tensor& t : e.inputGrads)
        step.push_back(t.toDoubles());
    for (const Tensor& t : e.weightGrads)
        step.push_back(t.toDoubles());
    grads.push_back(std::move(step));
}

void Recorder::graphCompiled(const GraphCompileEvent& e)
{
    Compile c{*e.function, *e.signature, e.compiles, 0, 0, 0, e.graph->totalNodeCount(),
              printGraph(*e.graph)};
    for (const GraphNode& n : e.graph->nodes()) {
        c.ifNodes += n.kind == NodeKind::If;
        c.whileNodes += n.kind == NodeKind::While;
        c.customBpropNodes += n.kind == NodeKind::CustomBprop;
        c.backwardNodes += n.identity.phase == Phase::Backward;
        c.updateNodes += n.identity.phase == Phase::Update;
    }
    compiles.push_back(std::move(c));
}

void runInMode(const std::filesystem::path& script, ModeOverride mode, ModeRun& run)
{
    ensureHost();
    RunRequest request;
    request.script = script;
    request.timeout = std::chrono::seconds(120);
    request.observer = &run.recorder;
    request.overrides.mode = mode;
    request.output = [&run](OutputStream stream, std::string_view text) {
        (stream == OutputStream::Stdout ? run.outcome.out : run.outcome.err) += text;
    };
    ScriptRunner runner;
    run.outcome.result = runner.run(std::move(request));
}

std::filesystem::path sample(const std::string& name)
{
    return std::filesystem::path(GRADSTEP_SOURCE_DIR) / "samples" / (name + ".py");
}

double relativeError(const std::vector<double>& a, const std::vector<double>& b)
{
    double diff = 0, scale = 1e-30;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff = std::max(diff, std::abs(a[i] - b[i]));
        scale = std::max(scale, std::abs(b[i]));
    }
    return diff / scale;
}

void checkSameInBothModes(const std::filesystem::path& script, double tolerance)
{
    ModeRun graph, eager;
    runInMode(script, ModeOverride::Graph, graph);
    runInMode(script, ModeOverride::PyNative, eager);
    INFO(graph.outcome.diagnostic() << eager.outcome.diagnostic());
    REQUIRE(graph.outcome.ok());
    REQUIRE(eager.outcome.ok());
    CHECK(graph.outcome.out == eager.outcome.out);
    CHECK(eager.recorder.compiles.empty());
    CHECK_FALSE(graph.recorder.compiles.empty());
    REQUIRE(graph.recorder.grads.size() == eager.recorder.grads.size());
    REQUIRE_FALSE(graph.recorder.grads.empty());
    for (std::size_t s = 0; s < graph.recorder.grads.size(); ++s) {
        REQUIRE(graph.recorder.grads[s].size() == eager.recorder.grads[s].size());
        for (std::size_t g = 0; g < graph.recorder.grads[s].size(); ++g) {
            INFO("step " << s << " gradient " << g);
            REQUIRE(graph.recorder.grads[s][g].size() == eager.recorder.grads[s][g].size());
            CHECK(relativeError(graph.recorder.grads[s][g], eager.recorder.grads[s][g])
                  <= tolerance);
        }
    }
}

ModeRun runGraphSource(const std::string& source)
{
    TempDir dir;
    ModeRun run;
    runInMode(dir.write("main.py", source), ModeOverride::Graph, run);
    return run;
}

} // namespace gradstep::python::test
