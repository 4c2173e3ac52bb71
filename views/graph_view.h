// The computation graph as interactive scene items: nodes, edges (cross links dashed), Cell
// clusters; zoom with the wheel (around the cursor), pan by dragging, fit, and the current node
// kept in view. The layout is core/display's (Graphviz on the LayoutEngine's worker thread): a
// graph is laid out once per step, and a pause only recolours it. Double-clicking a Cell
// cluster folds it into one node; double-clicking a folded Cell opens it again. A search field
// (top right, Ctrl+F) finds nodes by name, op or scope and jumps to them; an overview (bottom
// right) shows the whole graph with the viewport's rectangle and moves it on click or drag.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/graph_items.h"
#include "views/graph_picture.h"

#include <QGraphicsView>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gradstep::views {

class GraphOverview;
class GraphSearchBar;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    /// Graphs with more nodes open with Cells folded to the depth that fits.
    static constexpr std::size_t kNodeBudget = 160;

    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    /// Lays out `full` (Cells folded by autoCollapseDepth unless the same Cells were shown
    /// before, then the user's folding stays) in the background; the scene is replaced when the
    /// layout arrives, and fitted when `fit`.
    void setGraph(std::shared_ptr<const display::DisplayGraph> full, bool fit = true);
    /// The states to show: records executed so far in this step and the current one. Applied
    /// now, and again to every layout that arrives later.
    void setStates(std::vector<debug::RecordPtr> executed, debug::RecordPtr current);
    /// Colours for the nodes of these keys instead of their phase's and state's (a migration
    /// comparison colours each pair by its difference): applied now and to every later layout.
    void setNodeStyles(std::map<QString, NodeStyle> styles);
    /// Draws nothing, until the next setGraph: another script or run starts (a failed start, a
    /// syntax error, must not leave the previous script's graph on screen).
    void clear();

    /// Folds an expanded Cell cluster, or opens a folded one, and lays the graph out again.
    void toggleCell(const QString& path);
    const display::CollapseState& collapseState() const { return m_collapse; }

    /// The laid-out graph drawn now (null before the first layout arrived).
    std::shared_ptr<const display::LayoutResult> layout() const { return m_layout; }
    /// True while a layout is on its way.
    bool layoutPending() const { return m_pending != 0; }
    /// Processes events until no layout is pending; false after `timeoutMs`.
    bool waitForLayout(int timeoutMs = 30000);
    /// Writes the drawn layout as SVG, PNG, PDF or DOT by the file's suffix. Returns an error
    /// message, empty on success.
    QString exportTo(const QString& path) const;

    const GraphPicture& picture() const { return m_picture; }
    NodeState nodeState(int index) const;
    int currentNode() const;
    void selectNode(int index);

    void zoomBy(double factor);
    /// The whole graph in the view (View > Fit Graph), however small that makes it.
    void fitAll();
    double zoom() const;
    /// The scene point at the viewport's centre.
    QPointF viewCenter() const;

    /// Nodes whose name (full name or key), op title or scope contains `text`, ignoring case,
    /// in the layout's order (forward, backward, update). Empty text finds nothing.
    std::vector<int> findNodes(const QString& text) const;
    /// Selects and centres on `index` (as a click would: nodeActivated is emitted).
    void jumpToNode(int index);
    /// Selects `indices` (the first is centred) without emitting nodeActivated: a link from
    /// another view.
    void selectNodes(const std::vector<int>& indices);
    std::vector<int> selectedNodes() const;
    /// The nodes that stand for these op keys (display::recordKey): their op nodes, or the
    /// folded Cells holding them.
    std::vector<int> nodesOfKeys(const std::set<std::string>& keys) const;
    /// A parameter's nodes: the Parameter source nodes and its optimizer update nodes (or the
    /// folded update Cell).
    std::vector<int> nodesOfParameter(const QString& name) const;

    GraphSearchBar* searchBar() const { return m_search; }
    GraphOverview* overview() const { return m_overview; }

signals:
    /// A node was clicked: its index in picture().
    void nodeActivated(int index);
    /// A layout arrived and was drawn.
    void layoutReady();
    /// A layout failed: the message.
    void layoutFailed(const QString& message);

protected:
    /// A palette turning dark or light (the system's theme) redraws the nodes in its colours.
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct Inbox;
    void relayout();
    void measure(display::DisplayGraph& graph) const;
    void receive(std::uint64_t generation, std::shared_ptr<const display::LayoutResult> result, const QString& error);
    void draw(bool fit);
    /// A new graph's first view: fitted, but not below a zoom where labels stay legible (big
    /// graphs show their top).
    void fitLegible();
    void refreshStates();
    void createOverlays();
    void placeOverlays();

    std::shared_ptr<Inbox> m_inbox;
    std::shared_ptr<const display::DisplayGraph> m_full;
    std::shared_ptr<const display::LayoutResult> m_layout;
    std::shared_ptr<display::LayoutJob> m_job;
    display::CollapseState m_collapse;
    std::vector<debug::RecordPtr> m_executed;
    debug::RecordPtr m_current;
    std::uint64_t m_generation = 0;
    std::uint64_t m_pending = 0; ///< the generation on its way, 0 when none
    bool m_fitNext = true;
    GraphPicture m_picture;
    /// The current node the view last moved to: only a new one moves the view again.
    QString m_shownCurrentKey;
    std::vector<NodeItem*> m_items;
    std::map<QString, NodeStyle> m_nodeStyles;
    bool m_dark = false;
    GraphSearchBar* m_search = nullptr;
    GraphOverview* m_overview = nullptr;
};

} // namespace gradstep::views
