// The graph view's search and overview, the source view's links, the gradients table's
// sparklines and the chain-rule panel, on plain data. SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "display/display_graph.h"
#include "views/chain_rule.h"
#include "views/gradients_table.h"
#include "views/graph_overview.h"
#include "views/graph_search_bar.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QTemporaryFile>
#include <QTextBlock>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;

namespace {

debug::RecordPtr record(std::uint64_t seq, Phase phase, const std::string& op, const std::string& scope,
                        std::vector<std::uint64_t> from, Shape shape = Shape{2, 3})
{
    auto r = std::make_shared<debug::NodeRecord>();
    r->seq = seq;
    r->phase = phase;
    r->op = op;
    r->scope = scope;
    r->fullName = debug::recordFullName(phase, scope, op);
    for (std::uint64_t f : from) {
        debug::TensorRecord in;
        in.id = debug::TensorId::ofOutput(f, 0);
        in.stats.shape = shape;
        r->inputs.push_back(in);
    }
    debug::TensorRecord out;
    out.id = debug::TensorId::ofOutput(seq, 0);
    out.stats.shape = shape;
    r->outputs.push_back(out);
    return r;
}

/// A chain of `blocks` Cells "Net/block<i>" of Dense-like ops: enough nodes that a 400 x 300
/// view cannot show them all at a readable zoom.
std::vector<debug::RecordPtr> chain(int blocks)
{
    std::vector<debug::RecordPtr> records;
    std::uint64_t seq = 0;
    for (int b = 0; b < blocks; ++b) {
        const std::string scope = "Net/block" + std::to_string(b);
        for (const char* op : {"MatMul", "BiasAdd", "ReLU"}) {
            ++seq;
            records.push_back(record(seq, Phase::Forward, op, scope, seq > 1 ? std::vector<std::uint64_t>{seq - 1}
                                                                              : std::vector<std::uint64_t>{}));
        }
    }
    return records;
}

void click(QWidget* widget, const QPoint& at)
{
    const QPointF global = widget->mapToGlobal(QPointF(at));
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(at), global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &press);
    QMouseEvent release(QEvent::MouseButtonRelease, QPointF(at), global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &release);
}

void key(QWidget* widget, int code, Qt::KeyboardModifiers modifiers = Qt::NoModifier, const QString& text = QString())
{
    QKeyEvent press(QEvent::KeyPress, code, modifiers, text);
    QCoreApplication::sendEvent(widget, &press);
    QKeyEvent release(QEvent::KeyRelease, code, modifiers, text);
    QCoreApplication::sendEvent(widget, &release);
}

void type(QWidget* widget, const QString& text)
{
    for (const QChar c : text)
        key(widget, c.toUpper().unicode(), Qt::NoModifier, QString(c));
}

std::shared_ptr<const display::DisplayGraph> graphOf(const std::vector<debug::RecordPtr>& records)
{
    return std::make_shared<const display::DisplayGraph>(display::buildFromRecords(records));
}

} // namespace

TEST_CASE("searching the graph by name selects and centres the matches in turn")
{
    GraphView view;
    view.resize(400, 300);
    view.show();
    view.setGraph(graphOf(chain(12)));
    REQUIRE(view.waitForLayout());
    CHECK(view.findNodes(QStringLiteral("relu")).size() == 12);      // op titles, any case
    CHECK(view.findNodes(QStringLiteral("block11/")).size() == 3);   // a scope
    CHECK(view.findNodes(QStringLiteral("Net/block3/BiasAdd")).size() == 1); // a full name
    CHECK(view.findNodes(QStringLiteral("Conv2D")).empty());
    CHECK(view.findNodes(QStringLiteral("  ")).empty());

    std::vector<int> activated;
    QObject::connect(&view, &GraphView::nodeActivated, [&activated](int index) { activated.push_back(index); });
    GraphSearchBar* bar = view.searchBar();
    REQUIRE(bar);
    bar->setText(QStringLiteral("block7/BiasAdd"));
    REQUIRE(bar->matches().size() == 1);
    const int target = bar->matches().front();
    CHECK(view.picture().nodes[std::size_t(target)].key.contains(QStringLiteral("block7/BiasAdd")));
    CHECK(view.selectedNodes() == std::vector<int>{target});
    CHECK(activated == std::vector<int>{target});
    // Centred: the node's box holds the viewport's centre.
    CHECK(view.picture().nodes[std::size_t(target)].box.adjusted(-2, -2, 2, 2).contains(view.viewCenter()));

    // A new layout (a Cell folded elsewhere) keeps the selected node selected.
    const QString targetKey = view.picture().nodes[std::size_t(target)].key;
    view.toggleCell(QStringLiteral("Net/block0"));
    REQUIRE(view.waitForLayout());
    REQUIRE(view.selectedNodes().size() == 1);
    CHECK(view.picture().nodes[std::size_t(view.selectedNodes().front())].key == targetKey);
    CHECK(view.findNodes(QStringLiteral("matmul")).size() == 11); // block0's is inside the folded Cell
    view.toggleCell(QStringLiteral("Net/block0"));
    REQUIRE(view.waitForLayout());

    // Typing and Enter cycle through the matches, wrapping around; Shift+Enter goes back.
    auto* field = bar->findChild<QLineEdit*>();
    REQUIRE(field);
    field->clear();
    type(field, QStringLiteral("matmul"));
    REQUIRE(bar->matches().size() == 12);
    CHECK(bar->position() == 0);
    key(field, Qt::Key_Return);
    CHECK(bar->position() == 1);
    CHECK(view.selectedNodes() == std::vector<int>{bar->matches()[1]});
    const QPointF second = view.viewCenter();
    key(field, Qt::Key_Return, Qt::ShiftModifier);
    key(field, Qt::Key_Return, Qt::ShiftModifier);
    CHECK(bar->position() == 11);
    CHECK(view.selectedNodes() == std::vector<int>{bar->matches()[11]});
    CHECK(view.viewCenter() != second);
    bar->setText(QStringLiteral("nothing like this"));
    CHECK(bar->matches().empty());
    CHECK_FALSE(bar->next());
}

TEST_CASE("clicking and dragging in the overview moves the graph view there")
{
    GraphView view;
    view.resize(420, 320);
    view.show();
    view.setGraph(graphOf(chain(14)));
    REQUIRE(view.waitForLayout());
    view.resetTransform(); // readable size: the graph is much taller than the view
    view.centerOn(view.picture().bounds.center().x(), view.picture().bounds.top());
    GraphOverview* overview = view.overview();
    REQUIRE(overview);
    overview->renderNow();
    REQUIRE(overview->isVisible());
    CHECK(overview->geometry().right() <= view.viewport()->geometry().right());
    // The viewport's rectangle sits at the top of the overview now.
    const QRectF shown = overview->viewportRect();
    CHECK(shown.height() > 0);
    CHECK(shown.top() < overview->height() / 3.0);

    const QRectF bounds = view.picture().bounds;
    const QPointF target(bounds.center().x(), bounds.top() + bounds.height() * 0.8);
    const QPoint at = overview->toOverview(target).toPoint();
    const double before = view.viewCenter().y();
    click(overview, at);
    const QPointF after = view.viewCenter();
    CHECK(after.y() > before + bounds.height() * 0.5);
    CHECK(std::abs(after.y() - target.y()) < 0.1 * bounds.height());
    CHECK(overview->viewportRect().center().y() > overview->height() / 2.0);
    // A drag follows the mouse back up.
    const QPoint top = overview->toOverview(QPointF(bounds.center().x(), bounds.top() + bounds.height() * 0.3)).toPoint();
    QMouseEvent press(QEvent::MouseButtonPress, at, overview->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(overview, &press);
    QMouseEvent move(QEvent::MouseMove, top, overview->mapToGlobal(top), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(overview, &move);
    CHECK(std::abs(view.viewCenter().y() - (bounds.top() + bounds.height() * 0.3)) < 0.1 * bounds.height());

    // The whole graph in view: no overview.
    view.fitInView(view.scene()->sceneRect(), Qt::KeepAspectRatio);
    view.scale(0.9, 0.9);
    view.zoomBy(1.0);
    overview->viewChanged();
    CHECK_FALSE(overview->isVisible());

    // View > Graph Overview off: hidden even where the graph does not fit, back when on again.
    view.resetTransform();
    overview->viewChanged();
    REQUIRE(overview->isVisible());
    overview->setWanted(false);
    CHECK_FALSE(overview->isVisible());
    overview->setWanted(true);
    CHECK(overview->isVisible());
}

TEST_CASE("Fit Graph shows the whole graph however big, and folding a Cell keeps the view where it was")
{
    GraphView view;
    view.resize(420, 320);
    view.show();
    view.setGraph(graphOf(chain(30)), true);
    REQUIRE(view.waitForLayout());
    // The first view keeps labels legible (the top of a big graph); Fit Graph shows all of it.
    CHECK(view.zoom() >= 0.55);
    view.fitAll();
    const QRectF visible = view.mapToScene(view.viewport()->rect()).boundingRect();
    CHECK(visible.adjusted(-2, -2, 2, 2).contains(view.picture().bounds));

    // The current node is scrolled to once; a fold elsewhere does not jump back to it.
    std::vector<debug::RecordPtr> records = chain(30);
    view.setStates(records, records.front());
    view.resetTransform();
    view.centerOn(view.picture().bounds.center().x(), view.picture().bounds.bottom());
    view.toggleCell(QStringLiteral("Net/block28"));
    REQUIRE(view.waitForLayout());
    // Still at the bottom, not scrolled back to block0's current node at the top.
    CHECK(view.viewCenter().y() > view.picture().bounds.center().y());
}

TEST_CASE("a parameter's nodes are its source node and its update cluster")
{
    std::vector<debug::RecordPtr> records;
    auto matmul = std::const_pointer_cast<debug::NodeRecord>(record(1, Phase::Forward, "MatMul", "Net/dense", {}));
    debug::TensorRecord weight;
    weight.id = debug::TensorId::ofParameter("dense.weight");
    weight.stats.shape = Shape{2, 3};
    matmul->inputs.push_back(weight);
    records.push_back(matmul);
    auto mul = std::const_pointer_cast<debug::NodeRecord>(record(2, Phase::Update, "Mul", "Momentum", {}));
    weight.parameter = "dense.weight"; // an update op's view of the parameter names its group
    mul->inputs.push_back(weight);
    records.push_back(mul);
    GraphView view;
    view.setGraph(graphOf(records));
    REQUIRE(view.waitForLayout());
    const std::vector<int> nodes = view.nodesOfParameter(QStringLiteral("dense.weight"));
    REQUIRE_FALSE(nodes.empty());
    bool source = false, update = false;
    for (int i : nodes) {
        const PictureNode& n = view.picture().nodes[std::size_t(i)];
        source = source || (n.kind == PictureKind::Parameter && n.title == QStringLiteral("dense.weight"));
        update = update || (n.phase == Phase::Update && n.title == QStringLiteral("Mul"));
        CHECK(n.title != QStringLiteral("MatMul"));
    }
    CHECK(source);
    CHECK(update);
    CHECK(view.nodesOfParameter(QStringLiteral("other.weight")).empty());
    view.selectNodes(nodes);
    CHECK(view.selectedNodes() == nodes);
}

TEST_CASE("the source view reports a clicked line and marks linked lines full width")
{
    QTemporaryFile file;
    REQUIRE(file.open());
    file.write("a = 1\nb = 2\nc = a + b\nprint(c)\n");
    file.close();
    SourceView view;
    view.resize(500, 300);
    view.show();
    REQUIRE(view.loadFile(file.fileName()));
    std::vector<int> clicked;
    QObject::connect(&view, &SourceView::lineClicked, [&clicked](int line) { clicked.push_back(line); });
    const QRect third = view.cursorRect(QTextCursor(view.document()->findBlockByNumber(2)));
    click(view.viewport(), QPoint(40, third.center().y()));
    CHECK(clicked == std::vector<int>{3});
    view.setCurrentLine(2);
    view.setLinkedLines({3});
    CHECK(view.linkedLines() == QSet<int>{3});
    const auto marks = view.extraSelections();
    int fullWidth = 0;
    for (const auto& m : marks)
        fullWidth += m.format.property(QTextFormat::FullWidthSelection).toBool();
    CHECK(fullWidth == 2);
    // The current line's band runs across the text area, far right of the text too.
    const QImage shot = view.viewport()->grab().toImage();
    const QRect second = view.cursorRect(QTextCursor(view.document()->findBlockByNumber(1)));
    const QColor far = shot.pixelColor(shot.width() - 5, second.center().y());
    const QColor plain = shot.pixelColor(shot.width() - 5, view.cursorRect(QTextCursor(view.document()->findBlockByNumber(3))).center().y());
    CHECK(far != plain);
    CHECK(far.red() > far.blue() + 60); // amber
    view.setLinkedLines({});
    CHECK(view.linkedLines().isEmpty());
}

TEST_CASE("the gradients table draws each parameter's norm history as a sparkline")
{
    GradientsTable table;
    table.resize(900, 200);
    table.show();
    const Tensor g = Tensor::fromVector<float>(Shape{2}, {3.0f, 4.0f});
    table.setRows({{"w", true, debug::computeStats(g), 10.0}, {"b", true, debug::computeStats(g), 1.0}});
    table.setNormHistory({{QStringLiteral("w"), {4.0, 2.0, 1.0, 0.5}}, {QStringLiteral("b"), {1.0}}});
    CHECK(table.normHistory(0) == std::vector<double>{4.0, 2.0, 1.0, 0.5});
    CHECK(table.normHistory(1) == std::vector<double>{1.0});
    // Kept across new rows.
    table.setRows({{"w", true, debug::computeStats(g), 10.0}, {"b", true, debug::computeStats(g), 1.0}});
    CHECK(table.normHistory(0).size() == 4);
    QCoreApplication::processEvents();
    const QRect cell = table.visualRect(table.model()->index(0, GradientsTable::History));
    REQUIRE(cell.width() > 50);
    const QImage shot = table.viewport()->grab().toImage();
    int blue = 0;
    for (int x = cell.left(); x <= cell.right(); ++x)
        for (int y = cell.top(); y <= cell.bottom(); ++y) {
            const QColor c = shot.pixelColor(x, y);
            blue += c.blue() > 150 && c.red() < 120;
        }
    CHECK(blue > 20);
    // Falling norms: the line starts high (left, top) and ends low (right, bottom).
    int firstY = -1, lastY = -1;
    for (int y = cell.top(); y <= cell.bottom(); ++y) {
        const QColor left = shot.pixelColor(cell.left() + 7, y);
        if (left.blue() > 150 && left.red() < 120 && firstY < 0)
            firstY = y;
    }
    for (int y = cell.bottom(); y >= cell.top(); --y) {
        const QColor right = shot.pixelColor(cell.right() - 9, y);
        if (right.red() > 180 && right.green() < 160 && lastY < 0)
            lastY = y;
    }
    CHECK(firstY >= 0);
    CHECK(lastY > firstY);
}

TEST_CASE("the chain rule of a Mul backward node has the incoming, local and outgoing gradients")
{
    // Forward y = x0 * x1 with x0 = [1, 2, 3], x1 = [4, 5, 6]; dL/dy = [1, 0, 2].
    const Tensor x0 = Tensor::fromVector<float>(Shape{3}, {1, 2, 3});
    const Tensor x1 = Tensor::fromVector<float>(Shape{3}, {4, 5, 6});
    const Tensor dy = Tensor::fromVector<float>(Shape{3}, {1, 0, 2});
    auto forward = std::const_pointer_cast<debug::NodeRecord>(record(1, Phase::Forward, "Mul", "Net", {}, Shape{3}));
    forward->inputs.resize(2);
    forward->inputs[0].id = debug::TensorId::ofExternal(1);
    forward->inputs[0].stats.shape = Shape{3};
    forward->inputs[1].id = debug::TensorId::ofParameter("scale");
    forward->inputs[1].stats.shape = Shape{3};
    auto backward = std::const_pointer_cast<debug::NodeRecord>(record(2, Phase::Backward, "Mul", "Net", {}, Shape{3}));
    backward->forwardRecord = 1;
    backward->inputs.resize(1);
    backward->inputs[0].id = debug::TensorId::ofExternal(9);
    backward->inputs[0].stats.shape = Shape{3};
    backward->outputs.resize(2);
    backward->outputs[0].stats.shape = Shape{3};
    backward->outputs[0].snapshot = Tensor::fromVector<float>(Shape{3}, {4, 0, 12});
    backward->outputs[1].stats.shape = Shape{3};
    backward->outputs[1].snapshot = Tensor::fromVector<float>(Shape{3}, {1, 0, 6});
    const ChainRule rule = chainRuleOf(*backward, forward.get(), [&](const debug::TensorId& id) {
        return id == debug::TensorId::ofExternal(9) ? dy : Tensor();
    });
    CHECK(rule.op == QStringLiteral("Mul"));
    REQUIRE(rule.incoming.size() == 1);
    CHECK(rule.incoming[0].shape == Shape{3});
    CHECK(rule.positions.front() == 0); // non-zero incoming gradient first
    CHECK(rule.positions[1] == 2);
    CHECK(rule.incoming[0].values[0] == 1.0);
    REQUIRE(rule.inputs.size() == 2);
    CHECK(rule.inputs[0].local == QStringLiteral("dL/dx0 = dL/dy · x1"));
    CHECK(rule.inputs[1].name.contains(QStringLiteral("scale")));
    REQUIRE(rule.inputs[0].ratio);
    CHECK((*rule.inputs[0].ratio)[0] == Approx(4.0)); // dL/dx0 / dL/dy = x1
    CHECK((*rule.inputs[0].ratio)[1] == Approx(6.0));
    CHECK((*rule.inputs[1].ratio)[1] == Approx(3.0)); // = x0
    CHECK(localDerivative(QStringLiteral("NoSuchOp"), 1, 2).contains(QStringLiteral("dL/dx1")));
    CHECK(localDerivative(QStringLiteral("ReLU"), 0, 1).contains(QStringLiteral("x > 0")));

    TensorInspector inspector;
    CHECK_FALSE(inspector.chainRuleShown());
    inspector.setChainRule(rule);
    CHECK(inspector.chainRuleShown());
    const QString text = inspector.chainRuleView()->plainText();
    CHECK(text.contains(QStringLiteral("dL/dy [3]")));
    CHECK(text.contains(QStringLiteral("dL/dx1 [3]")));
    CHECK(text.contains(QStringLiteral("dL/dx0 = dL/dy · x1")));
    inspector.setChainRule(std::nullopt);
    CHECK_FALSE(inspector.chainRuleShown());
}
