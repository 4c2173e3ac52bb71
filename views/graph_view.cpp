// SPDX-License-Identifier: MIT
#include "views/graph_view.h"

#include "display/export.h"
#include "views/graph_items.h"
#include "views/graph_overview.h"
#include "views/graph_search_bar.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <set>

namespace gradstep::views {

/// Where the layout worker posts results: the view unhooks itself on destruction, so a layout
/// that ends later is dropped instead of reaching a deleted widget.
struct GraphView::Inbox {
    std::mutex mutex;
    GraphView* view = nullptr;
};

namespace {

constexpr int kClusterPathRole = 0;

QPainterPath edgePath(const PictureEdge& edge)
{
    QPainterPath path;
    if (edge.points.empty())
        return path;
    path.moveTo(edge.points.front());
    for (std::size_t i = 1; i + 2 < edge.points.size(); i += 3)
        path.cubicTo(edge.points[i], edge.points[i + 1], edge.points[i + 2]);
    path.lineTo(edge.arrowTip);
    return path;
}

QPolygonF arrowHead(const QPointF& from, const QPointF& tip)
{
    const double angle = std::atan2(tip.y() - from.y(), tip.x() - from.x());
    const double size = 7.0;
    return QPolygonF({tip, tip - QPointF(std::cos(angle - 0.45) * size, std::sin(angle - 0.45) * size),
                      tip - QPointF(std::cos(angle + 0.45) * size, std::sin(angle + 0.45) * size)});
}

std::vector<std::string> clusterPaths(const display::DisplayGraph& graph)
{
    std::vector<std::string> paths;
    for (const display::DisplayCluster& c : graph.clusters)
        paths.push_back(c.path);
    return paths;
}

} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), m_inbox(std::make_shared<Inbox>())
{
    m_inbox->view = this;
    setScene(new QGraphicsScene(this));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    m_dark = palette().color(QPalette::Base).lightness() < 128;
    connect(scene(), &QGraphicsScene::selectionChanged, this, [this] {
        const auto selected = scene()->selectedItems();
        if (selected.size() == 1)
            if (auto* node = dynamic_cast<NodeItem*>(selected.front()))
                emit nodeActivated(node->index());
    });
    createOverlays();
}

GraphView::~GraphView()
{
    // The scene dies with this widget: its items' deselection must not reach other views.
    scene()->blockSignals(true);
    {
        const std::lock_guard lock(m_inbox->mutex);
        m_inbox->view = nullptr;
    }
    if (m_job)
        m_job->cancel();
}

void GraphView::setGraph(std::shared_ptr<const display::DisplayGraph> full, bool fit)
{
    if (!full)
        return;
    // The same Cells as before (the next step, or the first step growing): keep the folding.
    if (!m_full || clusterPaths(*m_full) != clusterPaths(*full))
        m_collapse = display::CollapseState{display::autoCollapseDepth(*full, kNodeBudget), {}, {}};
    m_full = std::move(full);
    m_fitNext = m_fitNext || fit;
    relayout();
}

void GraphView::clear()
{
    if (m_job)
        m_job->cancel();
    m_job.reset();
    ++m_generation;
    m_pending = 0; // a layout still on its way is dropped by receive()
    m_full.reset();
    m_layout.reset();
    m_picture = GraphPicture{};
    m_items.clear();
    m_executed.clear();
    m_current.reset();
    m_shownCurrentKey.clear();
    {
        const QSignalBlocker block(scene());
        scene()->clear();
    }
    m_search->refresh();
    m_overview->renderNow();
}

void GraphView::setNodeStyles(std::map<QString, NodeStyle> styles)
{
    m_nodeStyles = std::move(styles);
    for (std::size_t i = 0; i < m_items.size() && i < m_picture.nodes.size(); ++i) {
        const auto style = m_nodeStyles.find(m_picture.nodes[i].key);
        m_items[i]->setStyleOverride(style == m_nodeStyles.end() ? std::nullopt : std::optional(style->second));
    }
}

void GraphView::setStates(std::vector<debug::RecordPtr> executed, debug::RecordPtr current)
{
    m_executed = std::move(executed);
    m_current = std::move(current);
    refreshStates();
}

void GraphView::toggleCell(const QString& path)
{
    const std::string key = path.toStdString();
    const bool folded = std::any_of(m_picture.nodes.begin(), m_picture.nodes.end(),
                                    [&](const PictureNode& n) { return n.cellPath == path; });
    if (folded) {
        m_collapse.collapsed.erase(key);
        m_collapse.expanded.insert(key);
    } else {
        m_collapse.expanded.erase(key);
        m_collapse.collapsed.insert(key);
    }
    relayout();
}

void GraphView::measure(display::DisplayGraph& graph) const
{
    QFont titleFont = font();
    titleFont.setPointSizeF(9.5);
    titleFont.setBold(true);
    QFont detailFont = font();
    detailFont.setPointSizeF(8.5);
    const QFontMetricsF title(titleFont);
    const QFontMetricsF detail(detailFont);
    for (display::DisplayNode& n : graph.nodes) {
        const double text = std::max({title.horizontalAdvance(QString::fromStdString(n.title)),
                                      detail.horizontalAdvance(QString::fromStdString(n.detail)),
                                      detail.horizontalAdvance(QString::fromStdString(n.tangent))});
        n.width = std::ceil(std::max(64.0, text + 22.0));
        n.height = std::ceil(title.height() + detail.height() * (n.tangent.empty() ? 1.0 : 2.0) + 12.0);
    }
}

void GraphView::relayout()
{
    if (!m_full)
        return;
    auto graph = std::make_shared<display::DisplayGraph>(display::collapse(*m_full, m_collapse));
    measure(*graph);
    const std::uint64_t generation = ++m_generation;
    m_pending = generation;
    if (m_job)
        m_job->cancel();
    const std::shared_ptr<Inbox> inbox = m_inbox;
    // The callback runs on the layout worker (or inside submit on a cache hit): it only posts.
    m_job = display::LayoutEngine::instance().submit(graph, {}, [inbox, generation](const display::LayoutJob& job) {
        if (job.status() == display::JobStatus::Cancelled)
            return;
        std::shared_ptr<const display::LayoutResult> result = job.result();
        const QString error = result ? QString() : QString::fromStdString(job.error());
        const std::lock_guard lock(inbox->mutex);
        if (GraphView* view = inbox->view)
            QMetaObject::invokeMethod(view, [view, generation, result, error] { view->receive(generation, result, error); },
                                      Qt::QueuedConnection);
    });
}

void GraphView::receive(std::uint64_t generation, std::shared_ptr<const display::LayoutResult> result,
                        const QString& error)
{
    if (generation != m_pending)
        return; // a newer layout is on its way
    m_pending = 0;
    if (!result) {
        emit layoutFailed(error.isEmpty() ? tr("the graph could not be laid out") : error);
        return;
    }
    m_layout = std::move(result);
    draw(m_fitNext);
    m_fitNext = false;
    refreshStates();
    m_search->refresh();
    m_overview->renderNow();
    emit layoutReady();
}

void GraphView::draw(bool fit)
{
    const QPointF center = mapToScene(viewport()->rect().center());
    // The selection survives a new layout of the same nodes (the next step, a folded Cell).
    std::set<QString> selectedKeys;
    for (int index : selectedNodes())
        selectedKeys.insert(m_picture.nodes[std::size_t(index)].key);
    m_picture = pictureFromLayout(*m_layout);
    m_items.clear();
    {
        const QSignalBlocker block(scene()); // dropping the selected items selects nothing new
        scene()->clear();
    }
    const QColor ink = m_dark ? QColor(200, 200, 200) : QColor(60, 60, 60);
    for (const PictureCluster& c : m_picture.clusters) {
        auto* rect = scene()->addRect(c.box, QPen(QColor(150, 150, 150), 1), clusterColor(c.phase, m_dark));
        rect->setZValue(0);
        rect->setData(kClusterPathRole, c.path);
        rect->setToolTip(tr("%1\ndouble-click to fold").arg(c.path));
        auto* title = scene()->addSimpleText(c.title);
        title->setBrush(ink);
        QFont font = title->font();
        font.setPointSizeF(8.5);
        font.setItalic(true);
        title->setFont(font);
        title->setPos(c.box.topLeft() + QPointF(6, 2));
        title->setZValue(1);
    }
    for (const PictureEdge& e : m_picture.edges) {
        QPen pen(e.crossLink ? QColor(160, 120, 200) : ink, e.crossLink ? 1.0 : 1.3);
        if (e.crossLink)
            pen.setStyle(Qt::DashLine);
        auto* path = scene()->addPath(edgePath(e), pen);
        path->setZValue(1);
        const QPointF before = e.points.empty() ? e.arrowTip : e.points.back();
        auto* head = scene()->addPolygon(arrowHead(before == e.arrowTip ? before - QPointF(0, 1) : before, e.arrowTip),
                                         QPen(pen.color(), 1), pen.color());
        head->setZValue(1);
    }
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        auto* item = new NodeItem(int(i), m_picture.nodes[i], m_dark);
        if (const auto style = m_nodeStyles.find(m_picture.nodes[i].key); style != m_nodeStyles.end())
            item->setStyleOverride(style->second);
        scene()->addItem(item);
        if (selectedKeys.count(m_picture.nodes[i].key)) {
            const QSignalBlocker block(scene());
            item->setSelected(true);
        }
        m_items.push_back(item);
    }
    scene()->setSceneRect(m_picture.bounds);
    if (fit)
        fitLegible();
    else
        centerOn(center);
}

void GraphView::changeEvent(QEvent* event)
{
    QGraphicsView::changeEvent(event);
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    if (event->type() != QEvent::PaletteChange || dark == m_dark)
        return;
    m_dark = dark;
    if (m_layout) {
        draw(false);
        refreshStates();
    }
}

void GraphView::refreshStates()
{
    if (!m_layout || !m_layout->graph)
        return;
    applyStates(m_picture, *m_layout->graph, m_executed, m_current.get());
    for (std::size_t i = 0; i < m_items.size() && i < m_picture.nodes.size(); ++i)
        m_items[i]->setState(m_picture.nodes[i].state);
    // Only a new current node moves the view: a fold, a refolded layout or a repaint of the
    // same node keeps what the user looks at.
    const int current = currentNode();
    const QString currentKey = current >= 0 ? m_picture.nodes[std::size_t(current)].key : QString();
    if (current >= 0 && currentKey != m_shownCurrentKey)
        ensureVisible(m_items[std::size_t(current)], 40, 40);
    m_shownCurrentKey = currentKey;
    m_overview->sceneChanged();
}

bool GraphView::waitForLayout(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_pending != 0 && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return m_pending == 0;
}

QString GraphView::exportTo(const QString& path) const
{
    if (!m_layout || !m_layout->graph)
        return tr("there is no graph to export yet");
    const auto format = display::parseExportFormat(QFileInfo(path).suffix().toLower().toStdString());
    if (!format)
        return tr("cannot export to '%1': expected a .svg, .png, .pdf or .dot file").arg(path);
    // The file shows the states on screen, not the ones the layout was made with.
    display::LayoutResult shown = *m_layout;
    auto graph = std::make_shared<display::DisplayGraph>(*m_layout->graph);
    graph->setStates(m_executed, m_current.get());
    shown.graph = std::move(graph);
    try {
        display::exportGraph(shown, *format, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

NodeState GraphView::nodeState(int index) const
{
    return m_items.at(std::size_t(index))->state();
}

int GraphView::currentNode() const
{
    for (std::size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i]->state() == NodeState::Current)
            return int(i);
    return -1;
}

void GraphView::selectNode(int index)
{
    const QSignalBlocker block(scene());
    scene()->clearSelection();
    if (index < 0 || std::size_t(index) >= m_items.size())
        return;
    m_items[std::size_t(index)]->setSelected(true);
    ensureVisible(m_items[std::size_t(index)], 40, 40);
}

void GraphView::zoomBy(double factor)
{
    const double next = zoom() * factor;
    if (next < 0.05 || next > 8.0)
        return;
    scale(factor, factor);
    m_overview->viewChanged();
}

void GraphView::fitAll()
{
    if (m_picture.nodes.empty())
        return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // A small graph is not blown up beyond its natural size.
    if (zoom() > 1.0) {
        resetTransform();
        centerOn(scene()->sceneRect().center());
    }
    m_overview->viewChanged();
}

void GraphView::fitLegible()
{
    fitAll();
    if (m_picture.nodes.empty())
        return;
    // Big graphs fitted whole would be unreadable: keep labels legible and show the top.
    if (zoom() < 0.55) {
        resetTransform();
        scale(0.55, 0.55);
        centerOn(scene()->sceneRect().center().x(), scene()->sceneRect().top());
    }
    m_overview->viewChanged();
}

double GraphView::zoom() const
{
    return transform().m11();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event)
{
    for (QGraphicsItem* item : items(event->position().toPoint())) {
        if (auto* node = dynamic_cast<NodeItem*>(item)) {
            if (node->kind() == PictureKind::Cell && !node->cellPath().isEmpty()) {
                toggleCell(node->cellPath());
                event->accept();
                return;
            }
            break; // an op node: nothing to fold
        }
        if (const QVariant path = item->data(kClusterPathRole); path.isValid()) {
            toggleCell(path.toString());
            event->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, palette().color(QPalette::Base));
}

} // namespace gradstep::views
