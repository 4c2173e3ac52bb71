// Tests views/migration: the Migration view over comparisons built in memory (always), and the
// window's File > Compare with PyTorch Script... over the samples' PyTorch CNN and its ports (only
// where python3-torch is importable: GRADSTEP_HAVE_TORCH, as the migrate command's tests).
// SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "views/graph_view.h"
#include "views/migration/migration_graph.h"
#include "views/migration/migration_view.h"

#include "tests/migrate/capture_builder.h"
#include "tests/views/window_test_support.h"

#include <catch2/catch.hpp>

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <set>

using namespace gradstep;
using namespace gradstep::views;
using gradstep::test::CaptureBuilder;

namespace {

/// fc (Linear/Dense) then act (LeakyReLU) with MindSpore's act output given: a finished
/// comparison as runMigration hands it over.
std::shared_ptr<migrate::MigrationOutcome> outcomeOf(std::vector<double> msAct)
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear", Json::parse(R"({"bias": true})"))
        .module("act", "LeakyReLU", Json::parse(R"({"negative_slope": 0.01})"));
    m.module("", "Net").module("fc", "Dense", Json::parse(R"({"has_bias": true})"))
        .module("act", "LeakyReLU", Json(Json::Object{{"alpha", 0.2}}));
    t.set("root", Json("Net"));
    m.set("root", Json("Net"));
    t.param("fc.weight", {2, 2}).param("fc.bias", {2});
    m.param("fc.weight", {2, 2}).param("fc.bias", {2});
    t.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, {1.0, -0.02}).forward("", {1, 2}, {1.0, -0.02});
    m.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, msAct).forward("", {1, 2}, msAct);
    for (CaptureBuilder* side : {&t, &m}) {
        side->tensor("grad/1/fc.weight", {2, 2}, {0.1, 0.2, 0.3, 0.4}).tensor("grad/1/fc.bias", {2}, {0.5, 0.6});
        side->tensor("after/1/fc.weight", {2, 2}, {1, 2, 3, 4}).tensor("after/1/fc.bias", {2}, {5, 6});
        side->tensor("loss/1", {}, {0.7});
    }
    auto o = std::make_shared<migrate::MigrationOutcome>();
    o->torchCapture = std::make_shared<const migrate::Capture>(t.build());
    o->msCapture = std::make_shared<const migrate::Capture>(m.build());
    o->result = migrate::compareCaptures(*o->torchCapture, *o->msCapture, {});
    return o;
}

std::vector<double> valuesOf(const Tensor& t)
{
    return t.toDoubles();
}

std::vector<double> captured(const migrate::Capture& c, const std::string& key)
{
    const auto view = c.tensor(key);
    REQUIRE(view);
    return std::vector<double>(view->values.begin(), view->values.end());
}

} // namespace

TEST_CASE("the Migration view opens on the first divergence, explained, its pair selected on both sides")
{
    MigrationView view;
    view.resize(1200, 700);
    view.show();
    view.setOutcome(outcomeOf({1.0, -0.4}));
    REQUIRE(view.graphView()->waitForLayout());
    REQUIRE(view.firstDivergence());
    CHECK(view.currentPair() == 1);
    CHECK(view.pairs()[1].torch == "act");
    CHECK_THAT(view.statusText().toStdString(), Catch::Contains("diverges: first at act"));
    CHECK_THAT(view.pairText().toStdString(), Catch::Contains("act (LeakyReLU)") && Catch::Contains("diverges"));
    CHECK_THAT(view.explanationText().toStdString(),
               Catch::Contains("First divergence (forward, step 1)")
                   && Catch::Contains("negative_slope=0.01 in PyTorch's LeakyReLU vs alpha=0.2"));
    CHECK(view.selectedNodeKeys() == QStringList({QStringLiteral("T:act#1"), QStringLiteral("M:act#1")}));
}

TEST_CASE("Next and Previous visit the pairs in execution order on both sides")
{
    MigrationView view;
    view.resize(1200, 700);
    view.show();
    view.setOutcome(outcomeOf({1.0, -0.4}));
    REQUIRE(view.graphView()->waitForLayout());
    view.selectPair(0);
    const QStringList expected[] = {
        {QStringLiteral("T:fc#1"), QStringLiteral("M:fc#1")},   // fc's output
        {QStringLiteral("T:act#1"), QStringLiteral("M:act#1")}, // act's output
        {QStringLiteral("T:#1"), QStringLiteral("M:#1")},       // the model's output
        {QStringLiteral("T:loss"), QStringLiteral("M:loss")},   // the loss
        {QStringLiteral("T:fc#1"), QStringLiteral("M:fc#1")},   // fc.bias's gradient, backward's first
        {QStringLiteral("T:fc#1"), QStringLiteral("M:fc#1")},   // fc.weight's gradient
        {QStringLiteral("T:fc#1"), QStringLiteral("M:fc#1")},   // fc.weight after the update
        {QStringLiteral("T:fc#1"), QStringLiteral("M:fc#1")},   // fc.bias after the update
    };
    REQUIRE(view.pairs().size() == std::size(expected));
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        INFO(i);
        CHECK(view.currentPair() == int(i));
        CHECK(view.selectedNodeKeys() == expected[i]);
        view.next();
    }
    CHECK(view.currentPair() == int(std::size(expected)) - 1); // Next stops at the last pair
    CHECK_THAT(view.pairText().toStdString(), Catch::Contains("after the update") && Catch::Contains("fc.bias"));
    view.previous();
    view.previous();
    CHECK(view.currentPair() == 5);
    CHECK_THAT(view.pairText().toStdString(), Catch::Contains("gradient") && Catch::Contains("fc.weight"));
    for (int i = 0; i < 10; ++i)
        view.previous();
    CHECK(view.currentPair() == 0); // and Previous at the first
}

TEST_CASE("the inspector shows both sides' captured values and MindSpore's minus PyTorch's")
{
    MigrationView view;
    const auto outcome = outcomeOf({1.0, -0.4});
    view.setOutcome(outcome);
    REQUIRE(view.currentPair() == 1);
    const migrate::ComparedPair& pair = view.pairs()[1];
    REQUIRE(view.shownTensors().size() == 3);
    REQUIRE(view.inspector()->tensorCount() == 3);
    const std::vector<double> t = captured(*outcome->torchCapture, pair.torchKey);
    const std::vector<double> m = captured(*outcome->msCapture, pair.msKey);
    CHECK(t == std::vector<double>{1.0, -0.02});
    CHECK(valuesOf(view.shownTensors()[0].snapshot) == t);
    CHECK(valuesOf(view.shownTensors()[1].snapshot) == m);
    const std::vector<double> diff = valuesOf(view.shownTensors()[2].snapshot);
    REQUIRE(diff.size() == 2);
    CHECK(diff[0] == 0.0);
    CHECK(diff[1] == Approx(-0.38));
    CHECK(view.inspector()->currentIndex() == 2); // the difference first
    CHECK(view.inspector()->statText(QStringLiteral("max")) == QStringLiteral("0"));
}

TEST_CASE("a divergence in step 2 opens on step 2 with step 2's tensors, and step 1 can be shown equal")
{
    // fc then act over two steps: equal in step 1, act parts in step 2 (an optimizer's momentum).
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear").module("act", "ReLU");
    m.module("", "Net").module("fc", "Dense").module("act", "ReLU");
    for (CaptureBuilder* side : {&t, &m}) {
        side->set("root", Json("Net")).set("steps", Json(2));
        side->param("fc.weight", {2, 2});
        side->forward("fc", {1, 2}, {1.0, 2.0}, 1).forward("act", {1, 2}, {1.0, 2.0}, 1);
        side->forward("fc", {1, 2}, {3.0, 4.0}, 2);
        for (const char* step : {"1", "2"}) {
            side->tensor(std::string("grad/") + step + "/fc.weight", {2, 2}, {0.1, 0.2, 0.3, 0.4});
            side->tensor(std::string("after/") + step + "/fc.weight", {2, 2}, {1, 2, 3, 4});
            side->tensor(std::string("loss/") + step, {}, {0.7});
        }
    }
    t.forward("act", {1, 2}, {3.0, 4.0}, 2);
    m.forward("act", {1, 2}, {3.0, 9.0}, 2);
    auto o = std::make_shared<migrate::MigrationOutcome>();
    o->torchCapture = std::make_shared<const migrate::Capture>(t.build());
    o->msCapture = std::make_shared<const migrate::Capture>(m.build());
    o->result = migrate::compareCaptures(*o->torchCapture, *o->msCapture, {});
    REQUIRE(o->result.firstDivergence);
    REQUIRE(o->result.firstDivergence->step == 2);

    MigrationView view;
    view.setOutcome(o);
    CHECK(view.shownStep() == 2);
    CHECK(view.stepCount() == 2);
    REQUIRE(view.currentPair() == 1);
    CHECK(view.pairs()[1].torch == "act");
    CHECK_THAT(view.pairText().toStdString(), Catch::StartsWith("step 2 · ") && Catch::Contains("diverges"));
    REQUIRE(view.shownTensors().size() == 3);
    CHECK(valuesOf(view.shownTensors()[0].snapshot) == std::vector<double>{3.0, 4.0});
    CHECK(valuesOf(view.shownTensors()[1].snapshot) == std::vector<double>{3.0, 9.0});

    view.showStep(1);
    CHECK(view.shownStep() == 1);
    CHECK_FALSE(view.firstDivergence());
    REQUIRE(view.currentPair() == 0);
    for (const migrate::ComparedPair& pair : view.pairs())
        CHECK(pair.status == migrate::PairStatus::Equal);
    view.selectPair(1);
    CHECK_THAT(view.pairText().toStdString(), Catch::StartsWith("step 1 · "));
    CHECK(valuesOf(view.shownTensors()[1].snapshot) == std::vector<double>{1.0, 2.0});
}

TEST_CASE("a matching corrected in the view is kept for the next run it asks for")
{
    MigrationView view;
    view.setScripts(QStringLiteral("t.py"), QStringLiteral("m.py"));
    view.setOutcome(outcomeOf({1.0, -0.4}));
    CHECK(view.torchNames() == QStringList({QStringLiteral("fc"), QStringLiteral("act"), QStringLiteral("fc.weight"),
                                            QStringLiteral("fc.bias")}));
    CHECK(view.msNames().contains(QStringLiteral("act")));
    int runs = 0;
    QObject::connect(&view, &MigrationView::runRequested, [&runs] { ++runs; });
    view.correctMatching(QStringLiteral("act"), QStringLiteral("fc"));
    CHECK(runs == 1);
    CHECK(view.userMap() == std::map<std::string, std::string>{{"act", "fc"}});
    view.clear(); // a new run clears the result, not the corrections
    CHECK(view.userMap().size() == 1);
    view.correctMatching(QStringLiteral(" "), QStringLiteral("fc")); // nothing to map: no run
    CHECK(runs == 1);
    view.setUserMap({});
    CHECK(view.userMap().empty());
}

TEST_CASE("PyTorch's side is drawn by the data flow its capture read off the autograd graph")
{
    // a and b both feed c (PyTorch's "inputs"); MindSpore's capture records no flow: a chain.
    CaptureBuilder t("torch"), m("mindspore");
    for (CaptureBuilder* side : {&t, &m}) {
        side->module("", "Net").module("a", "Linear").module("b", "Linear").module("c", "Bilinear");
        side->set("root", Json("Net"));
        side->forward("a", {1, 2}, {1, 2}).forward("b", {1, 2}, {3, 4}).forward("c", {1, 2}, {5, 6});
    }
    Json forward = Json::array();
    for (std::size_t i = 0; i < 3; ++i) {
        Json e = t.build().doc()["forward"][i];
        e["inputs"] = i == 2 ? Json::parse("[0, 1]") : Json::array();
        forward.push_back(std::move(e));
    }
    t.set("forward", forward);
    const migrate::Capture torch = t.build(), ms = m.build();
    const migrate::MigrationResult result = migrate::compareCaptures(torch, ms, {});
    const auto graph = buildMigrationGraph(torch, ms, migrate::comparedPairs(torch, ms, result, 1));
    std::set<std::pair<std::string, std::string>> edges;
    for (const display::DisplayEdge& e : graph->edges)
        edges.insert({graph->nodes[e.from].key, graph->nodes[e.to].key});
    CHECK(edges.count({"T:a#1", "T:c#1"}));
    CHECK(edges.count({"T:b#1", "T:c#1"}));
    CHECK_FALSE(edges.count({"T:a#1", "T:b#1"})); // no flow from a to b in PyTorch's graph
    CHECK(edges.count({"M:a#1", "M:b#1"}));       // MindSpore's side: execution order
    CHECK(edges.count({"M:b#1", "M:c#1"}));
}

TEST_CASE("a comparison without divergence says equal and colours every pair equal")
{
    MigrationView view;
    view.setOutcome(outcomeOf({1.0, -0.02}));
    CHECK_FALSE(view.firstDivergence());
    CHECK(view.statusText().startsWith(QStringLiteral("equal")));
    CHECK(view.currentPair() == 0);
    for (const migrate::ComparedPair& p : view.pairs())
        CHECK(p.status == migrate::PairStatus::Equal);
    CHECK_THAT(view.explanationText().toStdString(), Catch::Contains("Equal: the same values on both sides."));
}

namespace {

QString migrationSample(const char* name)
{
    return views::test::sample("migration/") + QLatin1String(name);
}

/// The window on `port`, compared with the PyTorch CNN; the view once its outcome arrived.
MigrationView& compareWithTorch(MainWindow& window, const QString& torch)
{
    window.startMigration(torch);
    REQUIRE(views::test::waitFor([&] { return window.migrationView()->outcome() && !window.migrating(); }));
    REQUIRE(window.migrationView()->graphView()->waitForLayout());
    return *window.migrationView();
}

} // namespace

TEST_CASE("without torch the window's Migration view names the package to install")
{
    QTemporaryDir dir;
    const std::string python = (dir.path() + QStringLiteral("/python3-without-torch")).toStdString();
    {
        std::ofstream out(python);
        out << "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n";
    }
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    auto window = views::test::openWindow(migrationSample("mindspore_cnn.py"));
    window->setMigrationPython(python);
    MigrationView& view = compareWithTorch(*window, migrationSample("torch_cnn.py"));
    CHECK(view.outcome()->status == migrate::MigrationStatus::TorchMissing);
    CHECK_THAT(view.statusText().toStdString(),
               Catch::Contains("install Debian's python3-torch (sudo apt-get install python3-torch)"));
    CHECK(view.pairs().empty());
    // The session re-ran to where it was.
    CHECK(views::test::waitFor([&] {
        const auto state = window->bridge().state();
        return state && state->status == debug::SessionStatus::Paused;
    }));
}

#ifdef GRADSTEP_HAVE_TORCH

TEST_CASE("the window compares a Conv2d port left at pad_mode='same' and opens on conv1, explained")
{
    auto window = views::test::openWindow(migrationSample("mindspore_cnn_pad_mode.py"));
    MigrationView& view = compareWithTorch(*window, migrationSample("torch_cnn.py"));
    REQUIRE(view.outcome()->status == migrate::MigrationStatus::Compared);
    REQUIRE(view.firstDivergence());
    const migrate::ComparedPair& pair = view.pairs()[std::size_t(view.currentPair())];
    CHECK(view.currentPair() == int(*view.firstDivergence()));
    CHECK(pair.torch == "conv1");
    CHECK(pair.mindspore == "conv1");
    CHECK(pair.status == migrate::PairStatus::Diverges);
    CHECK_THAT(view.explanationText().toStdString(),
               Catch::Contains("First divergence (shape, step 1)")
                   && Catch::Contains("padding=0 in PyTorch's Conv2d vs pad_mode='same' in MindSpore's Conv2d"));
    CHECK(view.selectedNodeKeys() == QStringList({QStringLiteral("T:conv1#1"), QStringLiteral("M:conv1#1")}));
    // Both tensors, as captured: PyTorch's [16, 6, 24, 24] against MindSpore's [16, 6, 28, 28].
    REQUIRE(view.shownTensors().size() == 2);
    CHECK(view.shownTensors()[0].snapshot.shape() == Shape({16, 6, 24, 24}));
    CHECK(view.shownTensors()[1].snapshot.shape() == Shape({16, 6, 28, 28}));
    CHECK(valuesOf(view.shownTensors()[0].snapshot) == captured(*view.outcome()->torchCapture, pair.torchKey));
    CHECK(valuesOf(view.shownTensors()[1].snapshot) == captured(*view.outcome()->msCapture, pair.msKey));
}

TEST_CASE("the window compares a LeakyReLU port at its default alpha and opens on act2, stepping from there")
{
    auto window = views::test::openWindow(migrationSample("mindspore_cnn_leaky_relu.py"));
    MigrationView& view = compareWithTorch(*window, migrationSample("torch_cnn.py"));
    REQUIRE(view.firstDivergence());
    const int first = view.currentPair();
    CHECK(view.pairs()[std::size_t(first)].torch == "act2");
    CHECK_THAT(view.explanationText().toStdString(), Catch::Contains("negative_slope=0.01") && Catch::Contains("alpha=0.2"));
    // The pairs before it are equal; stepping back reaches them on both sides.
    view.previous();
    CHECK(view.currentPair() == first - 1);
    CHECK(view.pairs()[std::size_t(first - 1)].status != migrate::PairStatus::Diverges);
    REQUIRE(view.selectedNodeKeys().size() == 2);
    CHECK(view.selectedNodeKeys()[0].startsWith(QStringLiteral("T:")));
    CHECK(view.selectedNodeKeys()[1].startsWith(QStringLiteral("M:")));
    view.next();
    view.next();
    CHECK(view.currentPair() == first + 1);
}

TEST_CASE("the window compares the faithful port: equal, every pair within tolerance")
{
    auto window = views::test::openWindow(migrationSample("mindspore_cnn.py"));
    MigrationView& view = compareWithTorch(*window, migrationSample("torch_cnn.py"));
    REQUIRE(view.outcome()->status == migrate::MigrationStatus::Compared);
    CHECK_FALSE(view.firstDivergence());
    CHECK(view.statusText().startsWith(QStringLiteral("equal")));
    CHECK(view.pairs().size() > 20);
    for (const migrate::ComparedPair& p : view.pairs()) {
        INFO(p.torch);
        CHECK((p.status == migrate::PairStatus::Equal || p.status == migrate::PairStatus::WithinTolerance));
    }
}

TEST_CASE("an LSTM port without batch_first opens on the LSTM's output element, its three tensors on one node")
{
    auto window = views::test::openWindow(migrationSample("mindspore_lstm_batch_first.py"));
    MigrationView& view = compareWithTorch(*window, migrationSample("torch_lstm.py"));
    REQUIRE(view.firstDivergence());
    const migrate::ComparedPair& first = view.pairs()[std::size_t(view.currentPair())];
    CHECK(first.torch == "lstm");
    CHECK(first.element == "0");
    CHECK_THAT(view.pairText().toStdString(), Catch::Contains("forward output element 0 · lstm (LSTM)"));
    CHECK_THAT(view.explanationText().toStdString(), Catch::Contains("batch_first=True in PyTorch's LSTM"));
    // h and c follow on the same nodes; h's batch axis differs: 8 sequences against 5.
    view.next();
    CHECK(view.pairs()[std::size_t(view.currentPair())].element == "1.0");
    CHECK(view.pairs()[std::size_t(view.currentPair())].status == migrate::PairStatus::Diverges);
    CHECK(view.selectedNodeKeys() == QStringList({QStringLiteral("T:lstm#1"), QStringLiteral("M:lstm#1")}));
    REQUIRE(view.shownTensors().size() == 2); // other shapes: no difference tensor
    CHECK(view.shownTensors()[0].snapshot.shape() == Shape({1, 8, 12}));
    CHECK(view.shownTensors()[1].snapshot.shape() == Shape({1, 5, 12}));
}

TEST_CASE("Stop cancels a running comparison with PyTorch and the session comes back")
{
    auto window = views::test::openWindow(migrationSample("mindspore_cnn.py"));
    window->startMigration(migrationSample("torch_cnn.py"));
    REQUIRE(window->migrating());
    REQUIRE(views::test::waitFor([&] { return window->migrationView()->statusText().contains(QStringLiteral("PyTorch side")); }, 30000));
    window->cancelMigration();
    REQUIRE(views::test::waitFor([&] { return !window->migrating(); }, 30000));
    REQUIRE(window->migrationView()->outcome());
    CHECK(window->migrationView()->outcome()->status == migrate::MigrationStatus::Cancelled);
    CHECK_THAT(window->migrationView()->statusText().toStdString(), Catch::Contains("cancelled"));
}

#endif // GRADSTEP_HAVE_TORCH
#endif // GRADSTEP_HAVE_WINDOW
