// Layouts on the engine's worker: a LeNet5 training step, collapse, fallback, cache, cancel,
// and the exports. SPDX-License-Identifier: MIT
#include "display/export.h"
#include "display/layout.h"
#include "tests/core/display/display_test_util.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gradstep;
using namespace gradstep::display;

namespace {

std::shared_ptr<const DisplayGraph> lenetStep()
{
    static const auto g = std::make_shared<const DisplayGraph>(buildFromRecords(testing::lenet5StepRecords()));
    return g;
}

void checkNoOverlap(const LayoutResult& r)
{
    for (std::size_t i = 0; i < r.nodes.size(); ++i)
        for (std::size_t j = i + 1; j < r.nodes.size(); ++j)
            if (r.nodes[i].intersects(r.nodes[j]))
                FAIL("nodes " << r.graph->nodes[i].key << " and " << r.graph->nodes[j].key << " overlap");
}

void checkInside(const LayoutResult& r)
{
    for (const Rect& n : r.nodes) {
        CHECK(n.x >= -0.5);
        CHECK(n.y >= -0.5);
        CHECK(n.right() <= r.bounds.width + 0.5);
        CHECK(n.bottom() <= r.bounds.height + 0.5);
    }
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("a LeNet5 training step lays out with dot, without overlapping nodes", "[display]")
{
    LayoutOptions options;
    options.useCache = false;
    const auto r = LayoutEngine::instance().layout(lenetStep(), options);
    CHECK(r->method == LayoutMethod::Dot);
    CHECK(r->collapseDepth == -1);
    REQUIRE(r->nodes.size() == lenetStep()->nodes.size());
    REQUIRE(r->edges.size() == lenetStep()->edges.size());
    REQUIRE(r->clusters.size() == lenetStep()->clusters.size());
    checkNoOverlap(*r);
    checkInside(*r);
    for (std::size_t i = 0; i < r->nodes.size(); ++i) {
        CHECK(r->nodes[i].width == Approx(lenetStep()->nodes[i].width).margin(0.5));
        const int c = lenetStep()->nodes[i].cluster;
        if (c < 0)
            continue;
        const Rect& box = r->clusters[static_cast<std::size_t>(c)];
        CHECK(box.x <= r->nodes[i].x + 0.5);
        CHECK(box.right() >= r->nodes[i].right() - 0.5);
    }
    for (const EdgeGeometry& e : r->edges) {
        CHECK(e.points.size() >= 4);
        CHECK((e.points.size() - 1) % 3 == 0);
    }
}

TEST_CASE("the backward pass is mirrored beside the forward pass", "[display]")
{
    const auto r = LayoutEngine::instance().layout(lenetStep());
    const DisplayGraph& g = *r->graph;
    const Rect conv1 = r->nodes[*g.findNode("F:LeNet5/conv1/Conv2D#0")];
    const Rect fc3 = r->nodes[*g.findNode("F:LeNet5/fc3/BiasAdd#0")];
    const Rect backConv1 = r->nodes[*g.findNode("B:Gradients/LeNet5/conv1/Conv2D#0")];
    const Rect backFc3 = r->nodes[*g.findNode("B:Gradients/LeNet5/fc3/BiasAdd#0")];
    CHECK(conv1.y < fc3.y);         // forward flows down
    CHECK(backConv1.y < backFc3.y); // backward mirrored: conv1's gradient at the top too
    CHECK(backConv1.x > conv1.x);   // beside the forward column
    // a backward edge's arrow points at its consumer: upwards
    const auto from = *g.findNode("B:Gradients/LeNet5/conv2/Conv2D#0");
    const auto to = *g.findNode("B:Gradients/LeNet5/max_pool2d/MaxPool#0");
    for (std::size_t e = 0; e < g.edges.size(); ++e)
        if (g.edges[e].from == from && g.edges[e].to == to)
            CHECK(r->edges[e].arrowTip.y < r->edges[e].points.front().y);
}

TEST_CASE("cross links are routed but do not constrain dot", "[display]")
{
    auto withLinks = lenetStep();
    auto moved = std::make_shared<DisplayGraph>(*withLinks);
    for (DisplayEdge& e : moved->edges)
        if (e.kind == EdgeKind::CrossLink)
            e.to = 0; // every cross link to another node: dot must not notice
    LayoutOptions options;
    options.useCache = false;
    const auto a = LayoutEngine::instance().layout(withLinks, options);
    const auto b = LayoutEngine::instance().layout(moved, options);
    REQUIRE(withLinks->countEdges(EdgeKind::CrossLink) == 17);
    for (std::size_t i = 0; i < a->nodes.size(); ++i) {
        CHECK(a->nodes[i].x == b->nodes[i].x);
        CHECK(a->nodes[i].y == b->nodes[i].y);
    }
    for (std::size_t e = 0; e < withLinks->edges.size(); ++e)
        if (withLinks->edges[e].kind == EdgeKind::CrossLink)
            CHECK(a->edges[e].points.size() == 4);
}

TEST_CASE("a second layout of the same graph is a cache hit", "[display]")
{
    auto graph = testing::syntheticStep(40, 7);
    auto& engine = LayoutEngine::instance();
    const EngineStats before = engine.stats();
    auto first = engine.submit(graph);
    REQUIRE(first->wait() == JobStatus::Done);
    CHECK_FALSE(first->cacheHit());
    auto copy = std::make_shared<const DisplayGraph>(*graph);
    auto second = engine.submit(copy);
    CHECK(second->status() == JobStatus::Done);
    CHECK(second->cacheHit());
    CHECK(second->result()->graph == copy);
    REQUIRE(second->result()->nodes.size() == first->result()->nodes.size());
    for (std::size_t i = 0; i < first->result()->nodes.size(); ++i) {
        CHECK(second->result()->nodes[i].x == first->result()->nodes[i].x);
        CHECK(second->result()->nodes[i].y == first->result()->nodes[i].y);
    }
    CHECK(engine.stats().cacheHits == before.cacheHits + 1);
}

TEST_CASE("a cache hit for a graph of the same structure draws that graph's own labels", "[display]")
{
    // Two scripts whose steps differ only in shapes ("[8, 4]" and "[2, 3]" are as wide): the
    // second reuses the first's positions, never its labels.
    auto first = std::make_shared<DisplayGraph>(*testing::syntheticStep(30, 5));
    for (DisplayNode& n : first->nodes)
        n.detail = "[8, 4]";
    auto second = std::make_shared<DisplayGraph>(*first);
    for (DisplayNode& n : second->nodes)
        n.detail = "[2, 3]";
    REQUIRE(first->structureHash() == second->structureHash());
    auto& engine = LayoutEngine::instance();
    REQUIRE(engine.submit(first)->wait() == JobStatus::Done);
    auto hit = engine.submit(second);
    REQUIRE(hit->wait() == JobStatus::Done);
    CHECK(hit->cacheHit());
    for (const DisplayNode& n : hit->result()->graph->nodes)
        CHECK(n.detail == "[2, 3]");

    // Collapsed to the node budget, the collapsed graph is built from the new graph too.
    LayoutOptions small;
    small.nodeBudget = 10;
    REQUIRE(engine.submit(first, small)->wait() == JobStatus::Done);
    auto collapsedHit = engine.submit(second, small);
    REQUIRE(collapsedHit->wait() == JobStatus::Done);
    CHECK(collapsedHit->cacheHit());
    REQUIRE(collapsedHit->result()->collapseDepth >= 0);
    for (const DisplayNode& n : collapsedHit->result()->graph->nodes)
        CHECK(n.detail.find("[8, 4]") == std::string::npos);
}

TEST_CASE("a queued layout can be cancelled and its callback still runs once", "[display]")
{
    auto& engine = LayoutEngine::instance();
    LayoutOptions options;
    options.useCache = false;
    auto busy = engine.submit(testing::syntheticStep(400, 1), options);
    std::atomic<int> calls{0};
    auto queued = engine.submit(testing::syntheticStep(400, 2), options, [&](const LayoutJob& job) {
        CHECK(job.status() == JobStatus::Cancelled);
        ++calls;
    });
    CHECK(queued->cancel());
    CHECK(queued->wait() == JobStatus::Cancelled);
    CHECK(queued->result() == nullptr);
    CHECK(busy->wait() == JobStatus::Done);
    CHECK_FALSE(queued->cancel());
    engine.runOnWorker([] {}); // the worker has passed the cancelled job
    CHECK(calls == 1);
}

TEST_CASE("graphs over the node budget are collapsed, over the hard limit laid out by layers", "[display]")
{
    LayoutOptions options;
    options.useCache = false;
    options.nodeBudget = 100;
    const auto collapsed = LayoutEngine::instance().layout(testing::syntheticStep(400), options);
    CHECK(collapsed->collapseDepth >= 0);
    CHECK(collapsed->graph->nodes.size() <= 100);
    CHECK(collapsed->method == LayoutMethod::Dot);
    checkNoOverlap(*collapsed);

    options.nodeBudget = 5000;
    options.hardLimit = 200;
    const auto layered = LayoutEngine::instance().layout(testing::syntheticStep(400), options);
    CHECK(layered->method == LayoutMethod::Layered);
    CHECK(layered->graph->nodes.size() == 800);
    checkNoOverlap(*layered);
    checkInside(*layered);
}

TEST_CASE("exports write svg with labels and clusters, dot that dot can read, png and pdf", "[display]")
{
    const auto r = LayoutEngine::instance().layout(lenetStep());
    const auto dir = std::filesystem::temp_directory_path() / "gradstep_display_test";
    std::filesystem::create_directories(dir);
    exportGraph(*r, ExportFormat::Svg, dir / "step.svg");
    const std::string svg = readFile(dir / "step.svg");
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("Conv2D") != std::string::npos);
    CHECK(svg.find("class=\"cluster\"") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
    exportGraph(*r, ExportFormat::Dot, dir / "step.dot");
    CHECK(readFile(dir / "step.dot").find("constraint=false") != std::string::npos);
    exportGraph(*r, ExportFormat::Png, dir / "step.png");
    CHECK(readFile(dir / "step.png").substr(1, 3) == "PNG");
    exportGraph(*r, ExportFormat::Pdf, dir / "step.pdf");
    CHECK(readFile(dir / "step.pdf").substr(0, 4) == "%PDF");
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        CHECK(entry.path().string().find(".tmp") == std::string::npos);
    CHECK_THROWS_AS(exportGraph(*r, ExportFormat::Svg, dir / "missing" / "x.svg"), RuntimeError);
    std::filesystem::remove_all(dir);
}


TEST_CASE("the same graph gets the same layout every time", "[display]")
{
    LayoutOptions options;
    options.useCache = false;
    const auto a = LayoutEngine::instance().layout(lenetStep(), options);
    const auto b = LayoutEngine::instance().layout(std::make_shared<const DisplayGraph>(*lenetStep()), options);
    for (std::size_t i = 0; i < a->nodes.size(); ++i) {
        CHECK(a->nodes[i].x == b->nodes[i].x);
        CHECK(a->nodes[i].y == b->nodes[i].y);
    }
    CHECK(a->bounds.width == b->bounds.width);
}
