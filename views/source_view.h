// The script as text: line numbers, Python colours, the current line marked, a breakpoint gutter
// (a click asks to toggle; the window decides through the Session and sets the marks back) and
// an error marker whose message shows on hover. SPDX-License-Identifier: MIT
#pragma once

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

protected:
    void resizeEvent(QResizeEvent* event) override;
    /// A palette turning dark or light re-colours the syntax and the line marks.
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void updateMarks();
    void updateGutterGeometry();

    QWidget* m_gutter = nullptr;
    PythonHighlighter* m_highlighter = nullptr;
    QString m_path;
    int m_currentLine = 0;
    QSet<int> m_breakpoints;
    int m_errorLine = 0;
    QString m_errorMessage;
};

} // namespace gradstep::views
