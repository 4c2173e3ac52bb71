// The graph view's search field: typing finds nodes by name, op or scope (GraphView::findNodes)
// and jumps to the first; Enter or the arrows cycle through the matches, Shift+Enter backwards.
// The label says "2 / 7" or "no match". SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>
#include <vector>

class QLabel;
class QLineEdit;
class QToolButton;

namespace gradstep::views {

class GraphView;

class GraphSearchBar : public QFrame {
    Q_OBJECT
public:
    explicit GraphSearchBar(GraphView* view);

    /// Searches for `text` and jumps to the first match (as typing does).
    void setText(const QString& text);
    QString text() const;
    /// The next (or previous) match, wrapping around; false when nothing matches.
    bool next();
    bool previous();
    /// The matches of the current text, and which one is shown (-1: none).
    const std::vector<int>& matches() const { return m_matches; }
    int position() const { return m_position; }
    /// Focuses the field and selects its text (Ctrl+F).
    void activate();
    /// Searches again (the graph was laid out anew: indices changed).
    void refresh();

private:
    void search(bool jump);
    void show(int position);

    GraphView* m_view;
    QLineEdit* m_field = nullptr;
    QLabel* m_count = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    std::vector<int> m_matches;
    int m_position = -1;
};

} // namespace gradstep::views
