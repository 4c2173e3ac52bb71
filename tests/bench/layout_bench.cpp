// Layout times on the engine's worker (cache off): LeNet5's training-step graph from real
// records, and synthetic training steps (forward chain with residual edges, mirrored backward,
// cross links) of 500 to 2,000 nodes: dot as the engine hands it the graph, with the default
// node budget (auto-collapse), and the layered fallback. SPDX-License-Identifier: MIT
#include "display/layout.h"
#include "tests/core/display/display_test_util.h"

#include <chrono>
#include <cstdio>

using namespace gradstep;
using namespace gradstep::display;

namespace {

void run(const char* name, const std::shared_ptr<const DisplayGraph>& graph, LayoutOptions options)
{
    options.useCache = false;
    const auto started = std::chrono::steady_clock::now();
    const auto r = LayoutEngine::instance().layout(graph, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%-44s %5zu nodes %5zu edges -> %5zu laid out (%s%s)  %8.3f s\n", name, graph->nodes.size(),
                graph->edges.size(), r->graph->nodes.size(), r->method == LayoutMethod::Dot ? "dot" : "layered",
                r->collapseDepth >= 0 ? ", collapsed" : "", seconds);
}

LayoutOptions uncapped()
{
    LayoutOptions o;
    o.nodeBudget = 1u << 20;
    o.hardLimit = 1u << 20;
    return o;
}

} // namespace

int main()
{
    run("LeNet5 b2 training step (records)",
        std::make_shared<const DisplayGraph>(buildFromRecords(testing::lenet5StepRecords())), uncapped());
    for (std::size_t total : {500u, 1000u, 2000u}) {
        const auto graph = testing::syntheticStep(total / 2);
        const std::string size = "synthetic step " + std::to_string(total);
        run((size + ", dot, no collapse").c_str(), graph, uncapped());
        run((size + ", default options").c_str(), graph, LayoutOptions{});
        LayoutOptions layered = uncapped();
        layered.hardLimit = 10;
        run((size + ", layered fallback").c_str(), graph, layered);
    }
    return 0;
}
