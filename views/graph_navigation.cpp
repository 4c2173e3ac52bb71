// GraphView: finding nodes (search, source lines, parameters), selecting and centring them, and
// the overlays (search field, overview) that sit on the viewport. SPDX-License-Identifier: MIT
#include "views/graph_view.h"

#include "display/display_graph.h"
#include "views/graph_items.h"
#include "views/graph_overview.h"
#include "views/graph_search_bar.h"

#include <QGraphicsScene>
#include <QScrollBar>
#include <algorithm>

namespace gradstep::views {

namespace {

constexpr int kOverlayMargin = 8;
constexpr QSize kOverviewSize(230, 170);

/// "F:LeNet5/conv1/Conv2D#0" -> "LeNet5/conv1/Conv2D#0"; "C:B:Gradients/x" -> "Gradients/x".
QString nameOfKey(const QString& key)
{
    int start = 0;
    while (start + 1 < key.size() && start < 4 && key[start + 1] == QLatin1Char(':') && key[start].isUpper())
        start += 2;
    return key.mid(start);
}

} // namespace

void GraphView::createOverlays()
{
    m_search = new GraphSearchBar(this);
    m_overview = new GraphOverview(this);
    connect(horizontalScrollBar(), &QScrollBar::rangeChanged, m_overview, [this] { m_overview->viewChanged(); });
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, m_overview, [this] { m_overview->viewChanged(); });
    placeOverlays();
}

void GraphView::placeOverlays()
{
    if (!m_search)
        return;
    const QRect area = viewport()->geometry();
    m_search->adjustSize();
    const QSize bar = m_search->sizeHint().boundedTo(QSize(std::max(120, area.width() - 2 * kOverlayMargin), 200));
    m_search->setGeometry(area.right() - kOverlayMargin - bar.width() + 1, area.top() + kOverlayMargin, bar.width(),
                          bar.height());
    // The overview takes at most a third of a small view in each direction.
    const QSize map(std::min(kOverviewSize.width(), area.width() / 3), std::min(kOverviewSize.height(), area.height() / 3));
    m_overview->setGeometry(area.right() - kOverlayMargin - map.width() + 1, area.bottom() - kOverlayMargin - map.height() + 1,
                            map.width(), map.height());
    m_overview->renderNow();
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    placeOverlays();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    if (m_overview)
        m_overview->viewChanged();
}

QPointF GraphView::viewCenter() const
{
    return mapToScene(viewport()->rect().center());
}

std::vector<int> GraphView::findNodes(const QString& text) const
{
    std::vector<int> found;
    const QString needle = text.trimmed();
    if (needle.isEmpty())
        return found;
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        const PictureNode& n = m_picture.nodes[i];
        if (nameOfKey(n.key).contains(needle, Qt::CaseInsensitive) || n.title.contains(needle, Qt::CaseInsensitive)
            || n.scope.contains(needle, Qt::CaseInsensitive))
            found.push_back(int(i));
    }
    return found;
}

void GraphView::jumpToNode(int index)
{
    if (index < 0 || std::size_t(index) >= m_items.size())
        return;
    scene()->clearSelection();
    NodeItem* item = m_items[std::size_t(index)];
    item->setSelected(true); // emits nodeActivated through the scene's selectionChanged
    centerOn(item);
}

void GraphView::selectNodes(const std::vector<int>& indices)
{
    {
        const QSignalBlocker block(scene());
        scene()->clearSelection();
        for (int index : indices)
            if (index >= 0 && std::size_t(index) < m_items.size())
                m_items[std::size_t(index)]->setSelected(true);
    }
    scene()->update();
    if (!indices.empty() && indices.front() >= 0 && std::size_t(indices.front()) < m_items.size())
        centerOn(m_items[std::size_t(indices.front())]);
}

std::vector<int> GraphView::selectedNodes() const
{
    std::vector<int> selected;
    for (std::size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i]->isSelected())
            selected.push_back(int(i));
    return selected;
}

std::vector<int> GraphView::nodesOfKeys(const std::set<std::string>& keys) const
{
    std::vector<int> found;
    if (!m_layout || !m_layout->graph || keys.empty())
        return found;
    const display::DisplayGraph& graph = *m_layout->graph;
    for (std::size_t i = 0; i < graph.nodes.size() && i < m_picture.nodes.size(); ++i) {
        const display::DisplayNode& n = graph.nodes[i];
        const bool hit = keys.count(n.key) > 0
            || std::any_of(n.members.begin(), n.members.end(), [&](const std::string& m) { return keys.count(m) > 0; });
        if (hit)
            found.push_back(int(i));
    }
    return found;
}

std::vector<int> GraphView::nodesOfParameter(const QString& name) const
{
    std::vector<int> found;
    const QString group = QLatin1Char('/') + name;
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        const PictureNode& n = m_picture.nodes[i];
        const bool source = n.kind == PictureKind::Parameter && nameOfKey(n.key) == name;
        // Update ops sit in a cluster named after the parameter ("Momentum/conv1.weight").
        const bool update = n.phase == Phase::Update
            && (n.scope.endsWith(group) || n.scope == name || n.cellPath.endsWith(group) || n.cellPath == name);
        if (source || update)
            found.push_back(int(i));
    }
    return found;
}

} // namespace gradstep::views
