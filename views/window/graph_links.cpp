// SPDX-License-Identifier: MIT
#include "views/window/graph_links.h"

#include "display/display_graph.h"
#include "views/gradients_table.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/window/main_window.h"

#include <QFileInfo>
#include <cmath>
#include <set>

namespace gradstep::views {

namespace {

/// Records' keys as DisplayGraph builds them (phase, full name, occurrence), with their lines
/// in `file`.
void addLines(const std::vector<debug::RecordPtr>& records, const QFileInfo& file, std::map<std::string, int>& lines)
{
    std::map<std::string, std::size_t> occurrences;
    for (const debug::RecordPtr& r : records) {
        const std::string key = display::recordKey(*r, occurrences[display::phaseLetter(r->phase) + r->fullName]++);
        if (r->location.line > 0 && r->location.file && QFileInfo(QString::fromStdString(*r->location.file)) == file)
            lines[key] = r->location.line;
    }
}

} // namespace

GraphLinks::GraphLinks(MainWindow* window) : QObject(window), m_window(window)
{
    connect(window->sourceView(), &SourceView::lineClicked, this, [this](int line) { selectLine(line); });
    connect(window->graphView(), &GraphView::nodeActivated, this, [this](int index) { nodePicked(index); });
    connect(window->gradientsTable(), &GradientsTable::parameterSelected, this,
            [this](const QString& name) { selectParameter(name); });
}

std::map<std::string, int> GraphLinks::lineOfKey() const
{
    std::map<std::string, int> lines;
    const debug::Session* session = m_window->bridge().session();
    const auto state = m_window->bridge().state();
    if (!session || !state)
        return lines;
    const QFileInfo file(m_window->sourceView()->filePath());
    // The graph of step k is drawn from step k-1's records: its pending nodes have lines there.
    if (state->step >= 2)
        addLines(session->recorder().stepRecords(state->step - 1), file, lines);
    addLines(session->recorder().currentRecords(), file, lines);
    return lines;
}

int GraphLinks::selectLine(int line)
{
    std::set<std::string> keys;
    for (const auto& [key, at] : lineOfKey())
        if (at == line)
            keys.insert(key);
    const std::vector<int> nodes = m_window->graphView()->nodesOfKeys(keys);
    m_window->graphView()->selectNodes(nodes);
    m_window->sourceView()->setLinkedLines(nodes.empty() ? QSet<int>() : QSet<int>{line});
    return int(nodes.size());
}

int GraphLinks::selectParameter(const QString& name)
{
    const std::vector<int> nodes = m_window->graphView()->nodesOfParameter(name);
    m_window->graphView()->selectNodes(nodes);
    m_window->sourceView()->setLinkedLines({});
    m_window->showSourceTensor(QStringLiteral("P:F:") + name);
    return int(nodes.size());
}

QSet<int> GraphLinks::linesOfNode(int index) const
{
    QSet<int> found;
    const auto layout = m_window->graphView()->layout();
    if (!layout || !layout->graph || index < 0 || std::size_t(index) >= layout->graph->nodes.size())
        return found;
    const display::DisplayNode& node = layout->graph->nodes[std::size_t(index)];
    const std::map<std::string, int> lines = lineOfKey();
    const auto add = [&](const std::string& key) {
        if (const auto it = lines.find(key); it != lines.end())
            found.insert(it->second);
    };
    add(node.key);
    for (const std::string& member : node.members)
        add(member);
    return found;
}

void GraphLinks::nodePicked(int index)
{
    m_window->sourceView()->setLinkedLines(linesOfNode(index));
}

} // namespace gradstep::views
