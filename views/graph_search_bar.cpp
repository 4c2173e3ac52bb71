// SPDX-License-Identifier: MIT
#include "views/graph_search_bar.h"

#include "views/graph_view.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QToolButton>

namespace gradstep::views {

namespace {

/// Enter goes to the next match, Shift+Enter to the previous one, Escape gives focus back.
class Field : public QLineEdit {
public:
    Field(GraphSearchBar* bar, GraphView* view) : QLineEdit(bar), m_bar(bar), m_view(view) {}

protected:
    void keyPressEvent(QKeyEvent* event) override
    {
        if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
            if (event->modifiers() & Qt::ShiftModifier)
                m_bar->previous();
            else
                m_bar->next();
            return;
        }
        if (event->key() == Qt::Key_Escape) {
            m_view->setFocus();
            return;
        }
        QLineEdit::keyPressEvent(event);
    }

private:
    GraphSearchBar* m_bar;
    GraphView* m_view;
};

} // namespace

GraphSearchBar::GraphSearchBar(GraphView* view) : QFrame(view), m_view(view)
{
    setObjectName(QStringLiteral("graphSearch"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 3, 4, 3);
    layout->setSpacing(3);
    m_field = new Field(this, view);
    m_field->setPlaceholderText(tr("Find node (Ctrl+F)"));
    m_field->setClearButtonEnabled(true);
    m_field->setMinimumWidth(190);
    m_field->setToolTip(tr("A node's name, op or Cell scope; Enter: next match, Shift+Enter: previous"));
    m_count = new QLabel(this);
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("000 / 000")));
    m_count->setAlignment(Qt::AlignCenter);
    m_previous = new QToolButton(this);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter)"));
    layout->addWidget(m_field);
    layout->addWidget(m_count);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    connect(m_field, &QLineEdit::textEdited, this, [this] { search(true); });
    connect(m_field, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty())
            search(false);
    });
    connect(m_previous, &QToolButton::clicked, this, [this] { previous(); });
    connect(m_next, &QToolButton::clicked, this, [this] { next(); });
    auto* find = new QShortcut(QKeySequence::Find, view);
    find->setContext(Qt::WindowShortcut);
    connect(find, &QShortcut::activated, this, [this] { activate(); });
    search(false);
}

void GraphSearchBar::setText(const QString& text)
{
    m_field->setText(text);
    search(true);
}

QString GraphSearchBar::text() const
{
    return m_field->text();
}

bool GraphSearchBar::next()
{
    if (m_matches.empty())
        return false;
    show(m_position < 0 ? 0 : (m_position + 1) % int(m_matches.size()));
    return true;
}

bool GraphSearchBar::previous()
{
    if (m_matches.empty())
        return false;
    const int n = int(m_matches.size());
    show(m_position <= 0 ? n - 1 : m_position - 1);
    return true;
}

void GraphSearchBar::activate()
{
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void GraphSearchBar::refresh()
{
    const int shown = m_position >= 0 ? m_matches[std::size_t(m_position)] : -1;
    m_matches = m_view->findNodes(m_field->text());
    m_position = -1;
    for (std::size_t i = 0; i < m_matches.size(); ++i)
        if (m_matches[i] == shown)
            m_position = int(i);
    search(false);
}

void GraphSearchBar::search(bool jump)
{
    if (jump) {
        m_matches = m_view->findNodes(m_field->text());
        m_position = -1;
    } else if (m_field->text().isEmpty()) {
        m_matches.clear();
        m_position = -1;
    }
    if (jump && !m_matches.empty()) {
        show(0);
        return;
    }
    const bool any = !m_matches.empty();
    m_previous->setEnabled(any);
    m_next->setEnabled(any);
    if (m_field->text().isEmpty())
        m_count->clear();
    else if (!any)
        m_count->setText(tr("no match"));
    else
        m_count->setText(QStringLiteral("%1 / %2").arg(m_position < 0 ? QStringLiteral("-") : QString::number(m_position + 1))
                             .arg(m_matches.size()));
}

void GraphSearchBar::show(int position)
{
    m_position = position;
    m_view->jumpToNode(m_matches[std::size_t(position)]);
    search(false);
}

} // namespace gradstep::views
