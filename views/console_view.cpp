// SPDX-License-Identifier: MIT
#include "views/console_view.h"

#include <QDir>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTemporaryFile>
#include <QTextBlock>
#include <QTextCursor>
#include <algorithm>

namespace gradstep::views {

// Note [A bounded console]
// A script may print a million lines. Inserting them one by one (one queued event and one edit
// each) kept the window busy for minutes and the document (with its undo stack) grew to gigabytes.
// So output is queued and inserted once per batch (every kBatchMs, what arrived meanwhile), the
// document keeps no undo history, and it holds at most maximumLines() lines: older ones are cut
// from the top after each batch, and a batch longer than the bound skips its head before it is
// inserted at all. A single line is shown up to maximumLineLength() characters (a print of a
// 100 MB string took half a minute to lay out, wrapped to a million rows). Nothing is lost: every
// appended text also goes to a log file, and the first line of the widget says how many lines left
// it or were cut, and where that file is.

namespace {
constexpr int kBatchMs = 30;

qint64 countLines(const QString& text) { return text.count(QLatin1Char('\n')); }
} // namespace

ConsoleView::ConsoleView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("The script's output and diagnostics appear here."));
    m_batch.setSingleShot(true);
    m_batch.setInterval(kBatchMs);
    connect(&m_batch, &QTimer::timeout, this, &ConsoleView::flush);
}

ConsoleView::~ConsoleView() = default;

void ConsoleView::append(const QString& text, Kind kind)
{
    if (text.isEmpty())
        return;
    if (!m_pending.empty() && m_pending.back().kind == kind)
        m_pending.back().text += text;
    else
        m_pending.push_back({kind, text});
    if (kind == Kind::Stdout || kind == Kind::Stderr) {
        if (!m_batch.isActive())
            m_batch.start();
        return;
    }
    flush();
}

void ConsoleView::flush()
{
    m_batch.stop();
    if (m_pending.empty())
        return;
    std::vector<Chunk> chunks;
    chunks.swap(m_pending);
    writeLog(chunks);
    skipHead(chunks);
    cutLongLines(chunks);
    const bool atEnd = verticalScrollBar()->value() == verticalScrollBar()->maximum();
    insert(chunks);
    trimTop();
    showNote();
    if (atEnd)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void ConsoleView::clear()
{
    m_batch.stop();
    m_pending.clear();
    m_dropped = 0;
    m_cutLines = 0;
    m_lineLength = 0;
    m_lineCut = false;
    m_hasNote = false;
    m_log.reset(); // removed unless lines were dropped (then the note named it)
    QPlainTextEdit::clear();
}

void ConsoleView::setMaximumLines(int lines)
{
    m_maxLines = std::max(1, lines);
    trimTop();
    showNote();
}

QString ConsoleView::logPath() const
{
    return m_log && (m_dropped > 0 || m_cutLines > 0) ? m_log->fileName() : QString();
}

void ConsoleView::writeLog(const std::vector<Chunk>& chunks)
{
    if (!m_log) {
        m_log = std::make_unique<QTemporaryFile>(QDir::temp().filePath(QStringLiteral("gradstep-console-XXXXXX.log")));
        if (!m_log->open()) {
            m_log.reset();
            return;
        }
    }
    for (const Chunk& c : chunks)
        m_log->write(c.text.toUtf8());
    m_log->flush();
}

void ConsoleView::skipHead(std::vector<Chunk>& chunks)
{
    qint64 lines = 0;
    for (const Chunk& c : chunks)
        lines += countLines(c.text);
    qint64 skip = lines - m_maxLines;
    if (skip <= 0)
        return;
    m_dropped += skip;
    std::size_t first = 0;
    for (; first < chunks.size() && skip > 0; ++first) {
        QString& text = chunks[first].text;
        const qint64 here = countLines(text);
        if (here > skip) {
            qsizetype at = -1;
            for (qint64 i = 0; i < skip; ++i)
                at = text.indexOf(QLatin1Char('\n'), at + 1);
            text.remove(0, at + 1);
            break;
        }
        skip -= here;
    }
    chunks.erase(chunks.begin(), chunks.begin() + std::ptrdiff_t(first));
}

void ConsoleView::cutLongLines(std::vector<Chunk>& chunks)
{
    const QString mark = tr(" [line cut here]");
    for (Chunk& c : chunks) {
        QString kept;
        qsizetype from = 0;
        const qsizetype n = c.text.size();
        bool cutHere = false;
        while (from < n) {
            qsizetype newline = c.text.indexOf(QLatin1Char('\n'), from);
            const qsizetype end = newline < 0 ? n : newline;
            const qsizetype room = std::max<qsizetype>(0, maximumLineLength() - m_lineLength);
            const qsizetype take = std::min(room, end - from);
            if (take < end - from) { // this line is longer than the widget shows
                if (!cutHere)
                    kept = c.text.left(from);
                cutHere = true;
                kept += QStringView(c.text).mid(from, take);
                if (!m_lineCut) {
                    kept += mark;
                    m_lineCut = true;
                    ++m_cutLines;
                }
            } else if (cutHere) {
                kept += QStringView(c.text).mid(from, take);
            }
            m_lineLength += end - from;
            if (newline < 0)
                break;
            if (cutHere)
                kept += QLatin1Char('\n');
            m_lineLength = 0;
            m_lineCut = false;
            from = newline + 1;
        }
        if (cutHere)
            c.text = kept;
    }
}

void ConsoleView::insert(const std::vector<Chunk>& chunks)
{
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.movePosition(QTextCursor::End);
    for (const Chunk& c : chunks)
        cursor.insertText(c.text, formatOf(c.kind));
    cursor.endEditBlock();
}

void ConsoleView::trimTop()
{
    const int noteBlocks = m_hasNote ? 1 : 0;
    const int excess = document()->blockCount() - noteBlocks - m_maxLines;
    if (excess <= 0)
        return;
    QTextCursor cursor(document()->findBlockByNumber(noteBlocks));
    cursor.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor, excess);
    cursor.removeSelectedText();
    m_dropped += excess;
}

void ConsoleView::showNote()
{
    if (m_dropped == 0 && m_cutLines == 0)
        return;
    if (m_log)
        m_log->setAutoRemove(false); // the note names it: it outlives the window
    const QString where = m_log ? tr("the full output is in %1").arg(m_log->fileName())
                                : tr("the full output could not be saved");
    QStringList what;
    if (m_dropped > 0)
        what << tr("%L1 earlier lines are not shown here").arg(m_dropped);
    if (m_cutLines > 0)
        what << tr("%L1 lines longer than %L2 characters are cut").arg(m_cutLines).arg(maximumLineLength());
    const QString note = QStringLiteral("[%1; %2]").arg(what.join(QStringLiteral("; ")), where);
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    if (m_hasNote) {
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.insertText(note, formatOf(Kind::Info));
    } else {
        cursor.insertText(note + QLatin1Char('\n'), formatOf(Kind::Info));
        m_hasNote = true;
    }
    cursor.endEditBlock();
}

QTextCharFormat ConsoleView::formatOf(Kind kind) const
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
    return format;
}

} // namespace gradstep::views
