// The script as text: line numbers, Python colours, the current line marked, a breakpoint gutter
// (a click asks to toggle; the window decides through the Session and sets the marks back) and
// an error marker whose message shows on hover. The current line is a full-width band (gutter
// included) with an arrow; lines linked to the graph's selection get a quieter band, and a click
// on a line asks the window to select its graph nodes. SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QHash>
#include <QPlainTextEdit>
#include <QSet>
#include <QString>

namespace gradstep::views {

class PythonHighlighter;

class SourceView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceView(QWidget* parent = nullptr);

    /// Shows the file; false (and an empty view) when it cannot be read.
    bool loadFile(const QString& path);
    QString filePath() const { return m_path; }

    /// 1-based; 0 clears the mark. Scrolls the line into view.
    void setCurrentLine(int line);
    int currentLine() const { return m_currentLine; }
    void setBreakpointLines(const QSet<int>& lines);
    QSet<int> breakpointLines() const { return m_breakpoints; }
    /// Breakpoints that cannot stop, drawn hollow, each with why (its tooltip): "no code on line
    /// 12", "line 12 never ran". Lines not in the map are verified.
    void setUnverifiedLines(const QHash<int, QString>& reasons);
    QHash<int, QString> unverifiedLines() const { return m_unverified; }
    /// Lines whose nodes are selected in the graph (1-based); an empty set clears them.
    void setLinkedLines(const QSet<int>& lines);
    QSet<int> linkedLines() const { return m_linked; }
    /// line 0 clears the marker.
    void setErrorMarker(int line, const QString& message);
    int errorLine() const { return m_errorLine; }
    QString errorMessage() const { return m_errorMessage; }

    int gutterWidth() const;
    /// The 1-based line at a y position of the viewport, 0 below the text.
    int lineAt(int y) const;
    void paintGutter(QPaintEvent* event);

signals:
    /// A click in the gutter on `line` (1-based).
    void breakpointToggleRequested(int line);
    /// A click (not a drag) on the text of `line` (1-based).
    void lineClicked(int line);

protected:
    void resizeEvent(QResizeEvent* event) override;
    /// A palette turning dark or light re-colours the syntax and the line marks.
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void updateMarks();
    QColor currentLineColor() const;
    QColor linkedLineColor() const;
    void updateGutterGeometry();

    QWidget* m_gutter = nullptr;
    PythonHighlighter* m_highlighter = nullptr;
    QString m_path;
    int m_currentLine = 0;
    QSet<int> m_breakpoints;
    QHash<int, QString> m_unverified;
    QSet<int> m_linked;
    QPoint m_pressedAt{-1, -1};
    int m_errorLine = 0;
    QString m_errorMessage;
};

} // namespace gradstep::views
