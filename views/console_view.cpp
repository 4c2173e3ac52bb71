// SPDX-License-Identifier: MIT
#include "views/console_view.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextCursor>

namespace gradstep::views {

ConsoleView::ConsoleView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setMaximumBlockCount(20000);
    setPlaceholderText(tr("The script's output and diagnostics appear here."));
}

void ConsoleView::append(const QString& text, Kind kind)
{
    QTextCharFormat format;
    switch (kind) {
    case Kind::Stdout:
        break;
    case Kind::Stderr:
        format.setForeground(QColor("#c62828"));
        break;
    case Kind::Diagnostic:
        format.setForeground(QColor("#c62828"));
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Info:
        format.setForeground(palette().color(QPalette::PlaceholderText));
        break;
    }
    const bool atEnd = verticalScrollBar()->value() == verticalScrollBar()->maximum();
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text, format);
    if (atEnd)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

} // namespace gradstep::views
