// SPDX-License-Identifier: MIT
#include "views/source_view.h"

#include "views/python_highlighter.h"

#include <QFile>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>

namespace gradstep::views {

namespace {

class Gutter : public QWidget {
public:
    explicit Gutter(SourceView* view) : QWidget(view), m_view(view)
    {
        setCursor(Qt::PointingHandCursor);
        setMouseTracking(true);
    }
    QSize sizeHint() const override { return {m_view->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (const int line = m_view->lineAt(int(event->position().y())); line > 0)
            emit m_view->breakpointToggleRequested(line);
    }
    bool event(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const int line = m_view->lineAt(help->pos().y());
            if (line > 0 && line == m_view->errorLine())
                QToolTip::showText(help->globalPos(), m_view->errorMessage(), this);
            else if (const QHash<int, QString> hollow = m_view->unverifiedLines(); hollow.contains(line))
                QToolTip::showText(help->globalPos(), tr("Breakpoint cannot stop: %1").arg(hollow.value(line)), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }

private:
    SourceView* m_view;
};

} // namespace

SourceView::SourceView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // The debugger's marks show where execution is; a blinking text caret would be a second one.
    setCursorWidth(0);
    m_highlighter = new PythonHighlighter(document());
    m_gutter = new Gutter(this);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterGeometry(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterGeometry();
}

bool SourceView::loadFile(const QString& path)
{
    QFile file(path);
    m_path = path;
    m_currentLine = 0;
    m_linked.clear(); // lines selected in another file mean nothing here
    m_errorLine = 0;
    m_errorMessage.clear();
    if (!file.open(QIODevice::ReadOnly)) {
        setPlainText(QString());
        updateMarks();
        return false;
    }
    setPlainText(QString::fromUtf8(file.readAll()));
    updateMarks();
    return true;
}

void SourceView::setCurrentLine(int line)
{
    m_currentLine = line;
    updateMarks();
    if (line <= 0)
        return;
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    setTextCursor(cursor);
    centerCursor();
}

void SourceView::setBreakpointLines(const QSet<int>& lines)
{
    m_breakpoints = lines;
    m_gutter->update();
}

void SourceView::setUnverifiedLines(const QHash<int, QString>& reasons)
{
    m_unverified = reasons;
    m_gutter->update();
}

void SourceView::setLinkedLines(const QSet<int>& lines)
{
    if (lines == m_linked)
        return;
    m_linked = lines;
    updateMarks();
    if (lines.isEmpty())
        return;
    // Bring the first linked line into view unless one already is.
    int first = *std::min_element(lines.begin(), lines.end());
    const int top = firstVisibleBlock().blockNumber() + 1;
    const int rows = viewport()->height() / std::max(1, fontMetrics().height());
    for (int line : lines)
        if (line >= top && line < top + rows)
            return;
    const QTextBlock block = document()->findBlockByNumber(first - 1);
    if (block.isValid()) {
        setTextCursor(QTextCursor(block));
        centerCursor();
    }
}

void SourceView::mousePressEvent(QMouseEvent* event)
{
    m_pressedAt = event->position().toPoint();
    QPlainTextEdit::mousePressEvent(event);
}

void SourceView::mouseReleaseEvent(QMouseEvent* event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    const QPoint at = event->position().toPoint();
    const bool click = event->button() == Qt::LeftButton && (at - m_pressedAt).manhattanLength() < 4;
    m_pressedAt = QPoint(-1, -1);
    if (click)
        if (const int line = lineAt(at.y()); line > 0)
            emit lineClicked(line);
}

void SourceView::setErrorMarker(int line, const QString& message)
{
    m_errorLine = line;
    m_errorMessage = message;
    updateMarks();
    m_gutter->update();
}

int SourceView::gutterWidth() const
{
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    const int marker = fontMetrics().height();
    return marker + 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

int SourceView::lineAt(int y) const
{
    QTextBlock block = firstVisibleBlock();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid()) {
        const int bottom = top + int(blockBoundingRect(block).height());
        if (y >= top && y < bottom)
            return block.blockNumber() + 1;
        top = bottom;
        block = block.next();
    }
    return 0;
}

void SourceView::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    const QPalette pal = palette();
    painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    painter.setRenderHint(QPainter::Antialiasing);
    const int lineHeight = fontMetrics().height();
    QTextBlock block = firstVisibleBlock();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        const int height = int(blockBoundingRect(block).height());
        const QRect marker(3, top + 2, lineHeight - 4, lineHeight - 4);
        if (line == m_currentLine)
            painter.fillRect(QRect(0, top, m_gutter->width(), height), currentLineColor());
        else if (m_linked.contains(line))
            painter.fillRect(QRect(0, top, m_gutter->width(), height), linkedLineColor());
        if (m_breakpoints.contains(line)) {
            // Hollow, as other debuggers draw a breakpoint that cannot be hit.
            const bool verified = !m_unverified.contains(line);
            painter.setBrush(verified ? QBrush(QColor("#d32f2f")) : QBrush(Qt::NoBrush));
            painter.setPen(verified ? QPen(Qt::NoPen) : QPen(QColor("#d32f2f"), 1.5));
            painter.drawEllipse(verified ? QRectF(marker) : QRectF(marker).adjusted(1, 1, -1, -1));
        }
        if (line == m_errorLine) {
            painter.setPen(QPen(QColor("#d32f2f"), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawLine(marker.topLeft(), marker.bottomRight());
            painter.drawLine(marker.topRight(), marker.bottomLeft());
        }
        if (line == m_currentLine) {
            painter.setPen(QPen(QColor("#8d5a00"), 1));
            painter.setBrush(QColor("#f59f00"));
            const QPointF arrow[] = {QPointF(marker.left(), marker.top() + 1), QPointF(marker.center().x(), marker.top() + 1),
                QPointF(marker.right() + 1, marker.center().y()), QPointF(marker.center().x(), marker.bottom() - 1),
                QPointF(marker.left(), marker.bottom() - 1)};
            painter.drawPolygon(arrow, 5);
        }
        QFont number = painter.font();
        number.setBold(line == m_currentLine);
        painter.setFont(number);
        painter.setPen(line == m_currentLine ? pal.color(QPalette::Text) : pal.color(QPalette::PlaceholderText));
        painter.drawText(QRect(0, top, m_gutter->width() - 4, height), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(line));
        top += height;
        block = block.next();
    }
}

void SourceView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void SourceView::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        // The highlighter picks its colours for the palette when it is made.
        delete m_highlighter;
        m_highlighter = new PythonHighlighter(document());
        updateMarks();
    }
}

bool SourceView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int line = lineAt(help->pos().y());
        if (line > 0 && line == m_errorLine)
            QToolTip::showText(help->globalPos(), m_errorMessage, viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void SourceView::updateGutterGeometry()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
    m_gutter->update();
}

QColor SourceView::currentLineColor() const
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    return dark ? QColor(110, 85, 10) : QColor(255, 226, 120);
}

QColor SourceView::linkedLineColor() const
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    return dark ? QColor(50, 40, 80) : QColor(232, 222, 248);
}

void SourceView::updateMarks()
{
    QList<QTextEdit::ExtraSelection> marks;
    const auto lineMark = [&](int line, const QColor& colour, bool underline) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (line <= 0 || !block.isValid())
            return;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        if (underline) {
            mark.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            mark.format.setUnderlineColor(colour);
        } else {
            mark.format.setBackground(colour);
            mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        }
        marks.append(mark);
    };
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    lineMark(m_errorLine, dark ? QColor(110, 30, 30) : QColor(255, 215, 215), false);
    lineMark(m_errorLine, QColor("#d32f2f"), true);
    for (int line : m_linked)
        if (line != m_currentLine)
            lineMark(line, linkedLineColor(), false);
    lineMark(m_currentLine, currentLineColor(), false);
    setExtraSelections(marks);
    m_gutter->update();
}

} // namespace gradstep::views
