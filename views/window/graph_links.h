// The links between the graph and the other views: a click on a source line selects the graph
// nodes that ran on it (and their backward nodes), a node picked in the graph marks its source
// line (pending nodes too, from the step the graph was drawn from), a row of the gradients table
// selects the parameter's nodes, and each state gives the table its norm sparklines.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <QObject>
#include <QSet>
#include <map>
#include <memory>
#include <string>

namespace gradstep::views {

class MainWindow;

class GraphLinks : public QObject {
    Q_OBJECT
public:
    explicit GraphLinks(MainWindow* window);

    /// Selects the graph nodes of source line `line` (1-based) and marks the line; returns the
    /// number of nodes selected.
    int selectLine(int line);
    /// Selects the graph nodes of parameter `name`; returns how many.
    int selectParameter(const QString& name);
    /// The source lines of graph node `index` (an op, or a folded Cell's ops).
    QSet<int> linesOfNode(int index) const;

private:
    /// Op node key -> source line, for the records of the shown step and the step the graph
    /// was drawn from (the same keys).
    std::map<std::string, int> lineOfKey() const;
    void nodePicked(int index);

    MainWindow* m_window;
};

} // namespace gradstep::views
