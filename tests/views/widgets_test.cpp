// The widgets that take plain data: source view marks, gradients table sorting and values,
// tensor slices, inspector, charts and the graph view over core/display's layout.
// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <limits>

#include "views/charts_view.h"
#include "views/heatmap_widget.h"
#include "views/gradients_table.h"
#include "display/display_graph.h"
#include "views/graph_picture.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/tensor_slice.h"
#include "tensor/dtype_storage.h"

#include <QTableWidget>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <algorithm>
#include <cmath>
#include <complex>

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

TEST_CASE("a slice of a complex tensor shows the magnitudes")
{
    const Tensor z = Tensor::fromVector<std::complex<float>>(Shape{2, 1, 2}, {{3, 4}, {0, -1}, {-6, 8}, {1, 0}});
    const Slice2D second = sliceOf(z, {1});
    CHECK(second.values == std::vector<double>{10.0, 1.0});
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
    CHECK(charts.learningRatePoints() == 0);
    CHECK_FALSE(charts.toCsv().contains(QStringLiteral("learning_rate")));
    // TensorBoard's smoothing adds the smoothed line over the faded steps; 0 takes it away.
    charts.setLogScale(false);
    CHECK(charts.lossSeries() == 1);
    charts.setSmoothing(0.6);
    CHECK(charts.lossSeries() == 2);
    CHECK(charts.lossPoints() == 3);
    charts.setSmoothing(0.0);
    CHECK(charts.lossSeries() == 1);
}

TEST_CASE("the loss chart shows the learning rate each step used, on its own axis, and the CSV holds it")
{
    ChartsView charts;
    std::vector<debug::StepSummary> history(3);
    for (int i = 0; i < 3; ++i) {
        history[std::size_t(i)].step = i + 1;
        history[std::size_t(i)].loss = 1.0;
        history[std::size_t(i)].learningRate = 0.1 / (i + 1);
    }
    history[1].learningRate = std::numeric_limits<double>::quiet_NaN(); // a step without an update
    charts.setHistory(history);
    CHECK(charts.learningRatePoints() == 2);
    const QStringList lines = charts.toCsv().split(QLatin1Char('\n'));
    CHECK(lines.at(0) == QStringLiteral("step,loss,learning_rate"));
    CHECK(lines.at(1).startsWith(QStringLiteral("1,1,0.1")));
    CHECK(lines.at(2) == QStringLiteral("2,1,"));
}

TEST_CASE("the loss-scale chart plots the scale per step, marks the overflows and counts the skipped updates")
{
    ChartsView charts;
    std::vector<debug::StepSummary> history(4);
    const double scales[] = {65536.0, 32768.0, 32768.0, 16384.0};
    for (int i = 0; i < 4; ++i) {
        history[std::size_t(i)].step = i + 1;
        history[std::size_t(i)].loss = 1.0;
        LossScaleEvent e;
        e.lossScale = scales[i];
        e.overflow = i == 0 || i == 2;
        e.updateSkipped = e.overflow;
        e.nextLossScale = e.overflow ? scales[i] / 2 : scales[i];
        history[std::size_t(i)].lossScale = e;
    }
    charts.setHistory(history);
    REQUIRE(charts.lossScaleShown());
    CHECK(charts.lossScalePoints() == 4);
    CHECK(charts.overflowMarks() == 2);
    CHECK(charts.lossScaleTitle().contains(QStringLiteral("2 overflow(s), 2 update(s) skipped")));
    const QStringList lines = charts.toCsv().split(QLatin1Char('\n'));
    CHECK(lines.at(0) == QStringLiteral("step,loss,loss_scale,overflow"));
    CHECK(lines.at(1) == QStringLiteral("1,1,65536,1"));
    CHECK(lines.at(2) == QStringLiteral("2,1,32768,0"));
    // A run without loss scaling has no such chart.
    history.resize(1);
    history[0].lossScale.reset();
    charts.setHistory(history);
    CHECK_FALSE(charts.lossScaleShown());
    CHECK(charts.lossScalePoints() == 0);
}

TEST_CASE("the loss and gradient charts say how many steps they leave out as not finite")
{
    ChartsView charts;
    std::vector<debug::StepSummary> history(4);
    for (int i = 0; i < 4; ++i) {
        history[std::size_t(i)].step = i + 1;
        history[std::size_t(i)].loss = i == 3 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
        debug::ParameterSummary w;
        w.name = "w";
        w.gradientNorm = i < 2 ? std::numeric_limits<double>::infinity() : 0.5; // two overflowing steps
        history[std::size_t(i)].parameters = {w};
    }
    charts.setHistory(history);
    CHECK(charts.normTitle() == QStringLiteral("Gradient norm per parameter<br>2 step(s) not finite, not drawn"));
    CHECK(charts.lossTitle() == QStringLiteral("Loss per step<br>1 step(s) not finite, not drawn"));
    history.resize(3);
    for (debug::StepSummary& s : history)
        s.parameters[0].gradientNorm = 0.5;
    charts.setHistory(history);
    CHECK(charts.normTitle() == QStringLiteral("Gradient norm per parameter"));
    CHECK(charts.lossTitle() == QStringLiteral("Loss per step"));
}

namespace {

/// Steps 1..4 of a run: loss 1/i, learning rate lr/i, parameter w with gradient norm 0.5 i and
/// weight norm 10 + i.
ChartRun normsRun(const char* label, double lr)
{
    ChartRun r;
    r.label = QString::fromLatin1(label);
    for (int i = 1; i <= 4; ++i) {
        debug::StepSummary s;
        s.step = i;
        s.loss = 1.0 / i;
        s.learningRate = lr / i;
        debug::ParameterSummary w;
        w.name = "w";
        w.gradientNorm = 0.5 * i;
        w.weightNorm = 10.0 + i;
        s.parameters = {w};
        r.steps.push_back(s);
    }
    return r;
}

} // namespace

TEST_CASE("the norm chart draws weight norms instead of gradient norms, for one run and for overlaid runs")
{
    ChartsView charts;
    charts.setHistory(normsRun("current", 0.1).steps);
    CHECK_FALSE(charts.showsWeightNorms());
    CHECK(charts.normTitle() == QStringLiteral("Gradient norm per parameter"));
    CHECK(charts.normAxisRange().second < 3.0); // gradient norms 0.5 .. 2
    charts.setWeightNorms(true);
    CHECK(charts.normTitle() == QStringLiteral("Weight norm per parameter"));
    CHECK(charts.normAxisRange().first > 10.0); // weight norms 11 .. 14
    CHECK(charts.normAxisRange().second >= 14.0);
    CHECK(charts.learningRateSeries() == 1);
    const QStringList single = charts.toCsv().split(QLatin1Char('\n'));
    CHECK(single.at(0) == QStringLiteral("step,loss,learning_rate,w,w weight norm"));
    CHECK(single.at(2) == QStringLiteral("2,0.5,0.050000000000000003,1,12"));

    // Overlaid: each run's learning rate on the right axis, weight norms per run, all exported.
    charts.setComparedRuns({normsRun("A", 0.1), normsRun("B", 0.2)}, std::nullopt);
    REQUIRE(charts.showingComparedRuns());
    CHECK(charts.learningRateSeries() == 2);
    CHECK(charts.lossTitle().startsWith(QStringLiteral("Loss and learning rate")));
    CHECK(charts.normTitle() == QStringLiteral("Weight norm per parameter"));
    CHECK(charts.normAxisRange().first > 10.0);
    const QStringList lines = charts.toCsv().split(QLatin1Char('\n'));
    CHECK(lines.at(0) == QStringLiteral("step,loss (A),loss (B),lr (A),lr (B),w (A),w (B),w weight norm (A),w weight norm (B)"));
    CHECK(lines.at(1) == QStringLiteral("1,1,1,0.10000000000000001,0.20000000000000001,0.5,0.5,11,11"));
    // Side by side and difference follow the choice.
    charts.setSideBySide(true);
    REQUIRE(charts.panelCount() == 4);
    CHECK(charts.panelRange(1).first > 10.0);
    CHECK(charts.panelTitle(0) == QStringLiteral("A: loss, learning rate (right)"));
    CHECK(charts.panelTitle(3) == QStringLiteral("B: weight norms"));
    charts.setSideBySide(false);
    charts.setWeightNorms(false);
    CHECK(charts.normTitle() == QStringLiteral("Gradient norm per parameter"));
    CHECK(charts.normAxisRange().second < 3.0);
}

TEST_CASE("the charts overlay two compared runs, mark where they part and export one column per run")
{
    ChartsView charts;
    auto run = [](const char* label, double lossScale) {
        ChartRun r;
        r.label = QString::fromLatin1(label);
        for (int i = 1; i <= 4; ++i) {
            debug::StepSummary s;
            s.step = i;
            s.loss = (i == 1 ? 1.0 : lossScale) / i;
            debug::ParameterSummary w;
            w.name = "w";
            w.gradientNorm = 0.5 * i;
            s.parameters = {w};
            r.steps.push_back(s);
        }
        return r;
    };
    std::vector<debug::StepSummary> current(1);
    current[0].step = 1;
    current[0].loss = 7.0;
    charts.setHistory(current);
    CHECK_FALSE(charts.showingComparedRuns());
    charts.setComparedRuns({run("A: lr 0.1", 1.0), run("B: lr 0.05", 1.5)}, 2);
    CHECK(charts.showingComparedRuns());
    const std::vector<QPointF> a = charts.lossPointsOf(QStringLiteral("A: lr 0.1"));
    const std::vector<QPointF> b = charts.lossPointsOf(QStringLiteral("B: lr 0.05"));
    REQUIRE(a.size() == 4);
    REQUIRE(b.size() == 4);
    CHECK(a[1] == QPointF(2, 0.5));
    CHECK(b[1] == QPointF(2, 0.75));
    CHECK(b[0] == QPointF(1, 1.0));
    REQUIRE(charts.divergenceLine());
    CHECK(*charts.divergenceLine() == 2.0);
    CHECK(charts.gradientSeries() == 3); // w in A, w in B, the divergence line
    const QStringList lines = charts.toCsv().split(QLatin1Char('\n'));
    CHECK(lines.at(0) == QStringLiteral("step,loss (A: lr 0.1),loss (B: lr 0.05),w (A: lr 0.1),w (B: lr 0.05)"));
    CHECK(lines.at(2) == QStringLiteral("2,0.5,0.75,1,1"));
    // Side by side: a loss panel and a norm panel per run, each row on one scale.
    charts.setSideBySide(true);
    REQUIRE(charts.panelCount() == 4);
    CHECK(charts.panelRange(0) == charts.panelRange(2)); // the two loss panels
    CHECK(charts.panelRange(1) == charts.panelRange(3)); // the two norm panels
    CHECK(charts.panelRange(0).second >= 1.0);
    {
        QTemporaryDir out;
        const QString png = out.filePath(QStringLiteral("side.png"));
        REQUIRE(charts.exportTo(png).isEmpty());
        const QImage image(png);
        CHECK(image.width() > image.height()); // two columns of two charts
    }
    charts.setSideBySide(false);
    CHECK(charts.panelCount() == 0);
    // Their difference, step by step: A - B.
    charts.setDifference(true);
    CHECK(charts.showsDifference());
    const std::vector<QPointF> diff = charts.lossPointsOf(QStringLiteral("A: lr 0.1 - B: lr 0.05"));
    REQUIRE(diff.size() == 4);
    CHECK(diff[0].y() == 0.0);
    CHECK(diff[1].y() == Approx(0.5 - 0.75));
    CHECK_FALSE(charts.divergenceLine());
    charts.setDifference(false);
    CHECK(charts.divergenceLine());
    // Back to the current run: its own single point, no divergence line; and forth again.
    charts.showComparedRuns(false);
    CHECK(charts.lossPoints() == 1);
    CHECK_FALSE(charts.divergenceLine());
    CHECK(charts.toCsv().startsWith(QStringLiteral("step,loss\n1,7")));
    charts.showComparedRuns(true);
    CHECK(charts.lossPointsOf(QStringLiteral("A: lr 0.1")).size() == 4);
    // Forgotten (another script opened): only the current run remains.
    charts.setComparedRuns({}, std::nullopt);
    CHECK_FALSE(charts.showingComparedRuns());
    CHECK(charts.lossPointsOf(QStringLiteral("A: lr 0.1")).empty());
}

namespace {

debug::RecordPtr makeRecord(std::uint64_t seq, Phase phase, const char* op, const std::string& scope,
                            std::vector<std::uint64_t> from)
{
    auto r = std::make_shared<debug::NodeRecord>();
    r->seq = seq;
    r->phase = phase;
    r->op = op;
    r->scope = scope;
    r->fullName = scope + "/" + op;
    for (std::uint64_t f : from) {
        debug::TensorRecord in;
        in.id = debug::TensorId::ofOutput(f, 0);
        in.defined = true;
        r->inputs.push_back(in);
    }
    r->outputs.push_back({});
    r->outputs.back().id = debug::TensorId::ofOutput(seq, 0);
    r->outputs.back().stats.shape = Shape{2, 3};
    return debug::RecordPtr(r);
}

/// MatMul -> ReLU in Net/dense, Softmax in Net, and ReLU's gradient.
std::vector<debug::RecordPtr> smallStep()
{
    std::vector<debug::RecordPtr> records = {makeRecord(1, Phase::Forward, "MatMul", "Net/dense", {}),
        makeRecord(2, Phase::Forward, "ReLU", "Net/dense", {1}), makeRecord(3, Phase::Forward, "Softmax", "Net", {2}),
        makeRecord(4, Phase::Backward, "ReLUGrad", "Gradients/Net/dense", {})};
    std::const_pointer_cast<debug::NodeRecord>(records[3])->forwardRecord = 2;
    return records;
}

int nodeTitled(const GraphPicture& picture, const QString& title)
{
    for (std::size_t i = 0; i < picture.nodes.size(); ++i)
        if (picture.nodes[i].title == title)
            return int(i);
    return -1;
}

} // namespace

TEST_CASE("the graph view draws core/display's layout of records and recolours it by state")
{
    const std::vector<debug::RecordPtr> records = smallStep();
    GraphView view;
    view.resize(600, 400);
    view.setGraph(std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records)));
    REQUIRE(view.waitForLayout());
    REQUIRE(view.layout());
    const GraphPicture& picture = view.picture();
    const int matmul = nodeTitled(picture, QStringLiteral("MatMul"));
    const int relu = nodeTitled(picture, QStringLiteral("ReLU"));
    const int grad = nodeTitled(picture, QStringLiteral("ReLUGrad"));
    REQUIRE(matmul >= 0);
    REQUIRE(relu >= 0);
    REQUIRE(grad >= 0);
    CHECK(picture.nodes[std::size_t(relu)].detail == QStringLiteral("[2, 3] f32"));
    // Laid out by dot: data flows downwards, no boxes overlap, every edge has a curve.
    CHECK(picture.nodes[std::size_t(matmul)].box.bottom() < picture.nodes[std::size_t(relu)].box.top());
    for (std::size_t i = 0; i < picture.nodes.size(); ++i)
        for (std::size_t j = i + 1; j < picture.nodes.size(); ++j)
            CHECK_FALSE(picture.nodes[i].box.intersects(picture.nodes[j].box));
    REQUIRE_FALSE(picture.edges.empty());
    CHECK(std::any_of(picture.edges.begin(), picture.edges.end(), [](const PictureEdge& e) { return e.crossLink; }));
    for (const PictureEdge& e : picture.edges)
        CHECK(e.points.size() >= 2);
    REQUIRE(picture.clusters.size() >= 2);
    const PictureCluster* dense = nullptr;
    for (const PictureCluster& c : picture.clusters)
        if (c.path == QStringLiteral("Net/dense"))
            dense = &c;
    REQUIRE(dense);
    CHECK(dense->box.contains(picture.nodes[std::size_t(matmul)].box));

    view.setStates({records[0], records[1]}, records[1]);
    CHECK(view.nodeState(matmul) == NodeState::Executed);
    CHECK(view.nodeState(relu) == NodeState::Current);
    CHECK(view.nodeState(grad) == NodeState::Pending);
    CHECK(view.currentNode() == relu);
    CHECK(view.picture().nodes[std::size_t(relu)].records == std::vector<std::uint64_t>{2});
    const double before = view.zoom();
    view.zoomBy(1.25);
    CHECK(view.zoom() == Approx(before * 1.25));
    CHECK_FALSE(view.grab().isNull());
}

TEST_CASE("toggling a Cell folds its cluster into one node and opens it again")
{
    const std::vector<debug::RecordPtr> records = smallStep();
    GraphView view;
    view.resize(600, 400);
    view.setGraph(std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records)));
    REQUIRE(view.waitForLayout());
    const std::size_t expanded = view.picture().nodes.size();
    view.toggleCell(QStringLiteral("Net/dense"));
    REQUIRE(view.waitForLayout());
    const int cell = view.picture().findNode(QStringLiteral("C:F:Net/dense"));
    REQUIRE(cell >= 0);
    CHECK(view.picture().nodes[std::size_t(cell)].kind == PictureKind::Cell);
    CHECK(view.picture().nodes[std::size_t(cell)].cellPath == QStringLiteral("Net/dense"));
    CHECK(nodeTitled(view.picture(), QStringLiteral("MatMul")) < 0);
    CHECK(view.picture().nodes.size() < expanded);
    view.setStates({records[0], records[1]}, records[1]);
    CHECK(view.nodeState(cell) == NodeState::Current);
    CHECK(view.picture().nodes[std::size_t(cell)].records == std::vector<std::uint64_t>{1, 2});
    view.toggleCell(QStringLiteral("Net/dense"));
    REQUIRE(view.waitForLayout());
    CHECK(view.picture().nodes.size() == expanded);
    CHECK(nodeTitled(view.picture(), QStringLiteral("MatMul")) >= 0);
    CHECK(view.currentNode() == nodeTitled(view.picture(), QStringLiteral("ReLU")));

    // The mouse does the same: a double-click on the cluster's frame folds it, on the Cell opens it.
    const auto doubleClick = [&view](const QPointF& scenePoint) {
        const QPointF at = view.mapFromScene(scenePoint);
        QMouseEvent event(QEvent::MouseButtonDblClick, at, view.viewport()->mapToGlobal(at), Qt::LeftButton,
                          Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(view.viewport(), &event);
    };
    view.show();
    view.resize(900, 700);
    view.fitAll();
    const auto dense = std::find_if(view.picture().clusters.begin(), view.picture().clusters.end(),
                                    [](const PictureCluster& c) { return c.path == QStringLiteral("Net/dense"); });
    REQUIRE(dense != view.picture().clusters.end());
    doubleClick(dense->box.bottomRight() - QPointF(3, 3));
    REQUIRE(view.waitForLayout());
    const int folded = view.picture().findNode(QStringLiteral("C:F:Net/dense"));
    REQUIRE(folded >= 0);
    doubleClick(view.picture().nodes[std::size_t(folded)].box.center());
    REQUIRE(view.waitForLayout());
    CHECK(view.picture().findNode(QStringLiteral("C:F:Net/dense")) < 0);
    CHECK(view.picture().nodes.size() == expanded);
}

TEST_CASE("the graph view exports the drawn layout as SVG and PNG")
{
    const std::vector<debug::RecordPtr> records = smallStep();
    GraphView view;
    CHECK_FALSE(view.exportTo(QDir::temp().filePath(QStringLiteral("never.svg"))).isEmpty()); // nothing laid out
    view.setGraph(std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records)));
    REQUIRE(view.waitForLayout());
    view.setStates({records[0]}, records[0]);
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    const QString png = dir.filePath(QStringLiteral("graph.png"));
    CHECK(view.exportTo(svg).isEmpty());
    CHECK(view.exportTo(png).isEmpty());
    QFile svgFile(svg);
    REQUIRE(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    CHECK(svgText.contains("<svg"));
    CHECK(svgText.contains("MatMul"));
    CHECK(svgText.contains("ReLUGrad"));
    QFile pngFile(png);
    REQUIRE(pngFile.open(QIODevice::ReadOnly));
    CHECK(pngFile.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    CHECK(QImage(png).width() > 50);
    CHECK(view.exportTo(dir.filePath(QStringLiteral("graph.txt"))).contains(QStringLiteral(".svg")));
}

TEST_CASE("the heatmap has a colour scale from its lowest to its highest value, symmetric around 0 when diverging")
{
    HeatmapWidget heatmap;
    heatmap.resize(320, 200);
    Slice2D slice;
    slice.rows = 2;
    slice.cols = 2;
    slice.values = {-2.0, 1.0, 0.5, 3.0};
    heatmap.setSlice(slice);
    CHECK(heatmap.scaleRange() == std::pair{-3.0, 3.0});
    const QRect bar = heatmap.scaleBar();
    REQUIRE_FALSE(bar.isEmpty());
    const QImage picture = heatmap.grab().toImage();
    const QColor top = picture.pixelColor(bar.center().x(), bar.top());
    const QColor bottom = picture.pixelColor(bar.center().x(), bar.bottom());
    CHECK(top == heatColor(3.0, -2.0, 3.0));    // the reddest cell's colour
    CHECK(bottom == heatColor(-3.0, -2.0, 3.0)); // the bluest the map can give
    CHECK(top.red() > top.blue());
    CHECK(bottom.blue() > bottom.red());

    slice.values = {1.0, 2.0, 3.0, 4.0}; // one sign: the scale spans the values themselves
    heatmap.setSlice(slice);
    CHECK(heatmap.scaleRange() == std::pair{1.0, 4.0});
}
