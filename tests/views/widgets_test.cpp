// The widgets that take plain data: source view marks, gradients table sorting and values,
// tensor slices, inspector, charts and the column picture of a step's records.
// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "views/charts_view.h"
#include "views/gradients_table.h"
#include "views/graph_picture.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/tensor_slice.h"

#include <QTableWidget>
#include <QTemporaryFile>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;

TEST_CASE("the source view marks the current line, breakpoints and an error")
{
    QTemporaryFile file;
    REQUIRE(file.open());
    file.write("import mindspore\nx = 1\n# a comment\ny = x + 1\n");
    file.close();
    SourceView view;
    REQUIRE(view.loadFile(file.fileName()));
    CHECK(view.blockCount() >= 4);
    view.setCurrentLine(2);
    CHECK(view.currentLine() == 2);
    CHECK(view.textCursor().blockNumber() == 1);
    view.setBreakpointLines({4});
    CHECK(view.breakpointLines().contains(4));
    view.setErrorMarker(4, QStringLiteral("NameError: name 'x' is not defined"));
    CHECK(view.errorLine() == 4);
    CHECK(view.extraSelections().size() >= 2);
    CHECK(view.gutterWidth() > 0);
    CHECK_FALSE(view.loadFile(QStringLiteral("/nonexistent/script.py")));
}

TEST_CASE("the gradients table shows norms and ratios and sorts numerically")
{
    GradientsTable table;
    std::vector<GradientRow> rows;
    const Tensor small = Tensor::fromVector<float>(Shape{2}, {0.5f, -0.5f});
    const Tensor big = Tensor::fromVector<float>(Shape{3}, {3.0f, 4.0f, 0.0f});
    rows.push_back({"fc.weight", true, debug::computeStats(big), 10.0});
    rows.push_back({"fc.bias", true, debug::computeStats(small), 2.0});
    rows.push_back({"unused", false, debug::TensorStats{}, 1.0});
    table.setRows(rows);
    REQUIRE(table.rowCount() == 3);
    CHECK(table.value(0, GradientsTable::Norm) == Approx(5.0));
    CHECK(table.value(0, GradientsTable::Ratio) == Approx(0.5));
    CHECK(table.value(1, GradientsTable::MaxAbs) == Approx(0.5));
    CHECK(std::isnan(table.value(2, GradientsTable::Norm)));
    CHECK(table.text(0, GradientsTable::Shape) == QStringLiteral("[3]"));
    table.sortByColumn(GradientsTable::Norm, Qt::DescendingOrder);
    CHECK(table.model()->index(0, GradientsTable::Name).data().toString() == QStringLiteral("fc.weight"));
    table.sortByColumn(GradientsTable::Norm, Qt::AscendingOrder);
    CHECK(table.model()->index(2, GradientsTable::Name).data().toString() == QStringLiteral("fc.weight"));
}

TEST_CASE("a slice of an N-D tensor takes the last two axes at the chosen leading indices")
{
    std::vector<float> values(24);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = float(i);
    const Tensor t = Tensor::fromVector<float>(Shape{2, 3, 4}, values);
    const Slice2D first = sliceOf(t, {});
    CHECK(first.rows == 3);
    CHECK(first.cols == 4);
    CHECK(first.at(2, 3) == 11.0);
    const Slice2D second = sliceOf(t, {1});
    CHECK(second.at(0, 0) == 12.0);
    CHECK(sliceOf(t, {7}).at(0, 0) == 12.0);
    const Slice2D scalar = sliceOf(Tensor::scalar(2.5), {});
    CHECK(scalar.rows == 1);
    CHECK(scalar.values == std::vector<double>{2.5});
    CHECK(sliceOf(Tensor(), {}).values.empty());
}

TEST_CASE("the tensor inspector shows stats and a values table of the slice")
{
    TensorInspector inspector;
    const Tensor t = Tensor::fromVector<float>(Shape{2, 2, 3}, {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6});
    inspector.setTensors(QStringLiteral("node"), {{QStringLiteral("output 0"), debug::computeStats(t), t}});
    CHECK(inspector.tensorCount() == 1);
    CHECK(inspector.statText(QStringLiteral("shape")) == QStringLiteral("[2, 2, 3]"));
    CHECK(inspector.statText(QStringLiteral("max")) == QStringLiteral("6"));
    REQUIRE(inspector.valuesTable()->rowCount() == 2);
    REQUIRE(inspector.valuesTable()->columnCount() == 3);
    CHECK(inspector.valuesTable()->item(1, 2)->text() == QStringLiteral("6"));
    inspector.clear();
    CHECK(inspector.tensorCount() == 0);
}

TEST_CASE("the charts draw the loss and one gradient-norm series per parameter")
{
    ChartsView charts;
    std::vector<debug::StepSummary> history(3);
    for (int i = 0; i < 3; ++i) {
        history[std::size_t(i)].step = i + 1;
        history[std::size_t(i)].loss = 2.0 / (i + 1);
        debug::ParameterSummary a, b;
        a.name = "w";
        a.gradientNorm = 1.0 + i;
        b.name = "b";
        b.gradientNorm = 0.0; // left out on a log scale
        history[std::size_t(i)].parameters = {a, b};
    }
    charts.setHistory(history);
    CHECK(charts.lossPoints() == 3);
    CHECK(charts.gradientSeries() == 2);
    charts.setLogScale(true);
    CHECK(charts.logScale());
    CHECK(charts.lossPoints() == 3);
}

TEST_CASE("the graph view draws a picture of records and recolours it by state")
{
    auto record = [](std::uint64_t seq, Phase phase, const char* name, std::vector<std::uint64_t> from) {
        auto r = std::make_shared<debug::NodeRecord>();
        r->seq = seq;
        r->phase = phase;
        r->op = name;
        r->fullName = std::string("Net/") + name;
        r->scope = "Net";
        for (std::uint64_t f : from) {
            debug::TensorRecord in;
            in.id = debug::TensorId::ofOutput(f, 0);
            r->inputs.push_back(in);
        }
        r->outputs.push_back({});
        r->outputs.back().stats.shape = Shape{2, 3};
        return debug::RecordPtr(r);
    };
    std::vector<debug::RecordPtr> records = {record(1, Phase::Forward, "MatMul", {}),
        record(2, Phase::Forward, "ReLU", {1}), record(3, Phase::Backward, "ReLUGrad", {})};
    std::const_pointer_cast<debug::NodeRecord>(records[2])->forwardRecord = 2;
    GraphPicture picture = pictureFromRecords(records);
    REQUIRE(picture.nodes.size() == 3);
    CHECK(picture.edges.size() == 2); // MatMul -> ReLU, and the cross link
    CHECK(picture.nodes[2].box.top() == picture.nodes[1].box.top()); // mirrored beside its twin
    CHECK_FALSE(picture.nodes[0].box.intersects(picture.nodes[1].box));
    CHECK(picture.clusters.size() >= 1);
    GraphView view;
    view.resize(600, 400);
    view.setPicture(picture);
    applyStates(picture, std::span(records).first(2), records[1].get());
    view.updateStates(picture);
    CHECK(view.nodeState(0) == NodeState::Executed);
    CHECK(view.nodeState(1) == NodeState::Current);
    CHECK(view.nodeState(2) == NodeState::Pending);
    CHECK(view.currentNode() == 1);
    const double before = view.zoom();
    view.zoomBy(1.25);
    CHECK(view.zoom() == Approx(before * 1.25));
    CHECK_FALSE(view.grab().isNull());
}
