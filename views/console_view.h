// The script's print output and the debugger's diagnostics. Output is shown in batches (what
// arrived since the last frame goes in with one edit) and the scrollback is bounded: the oldest
// lines leave the widget, a note in the first line says how many, and the whole text goes to a
// log file the note names (Note [A bounded console]). SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>
#include <QTimer>
#include <memory>
#include <vector>

class QTemporaryFile;

namespace gradstep::views {

class ConsoleView : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Kind { Stdout, Stderr, Diagnostic, Info };

    explicit ConsoleView(QWidget* parent = nullptr);
    ~ConsoleView() override;

    /// Appends `text` as it came (no newline added), coloured by kind. Script output is shown at
    /// the next batch (a few milliseconds later); the debugger's own messages at once, after it.
    void append(const QString& text, Kind kind);
    /// Shows everything appended so far now.
    void flush();
    /// Forgets the text, the dropped count and the log of the previous run.
    void clear();

    /// Lines kept in the widget (the note not counted); older ones leave it.
    void setMaximumLines(int lines);
    int maximumLines() const { return m_maxLines; }
    /// Lines that left the widget since clear().
    qint64 droppedLines() const { return m_dropped; }
    /// Lines cut at maximumLineLength() since clear().
    qint64 cutLines() const { return m_cutLines; }
    /// Characters of one line the widget shows; the rest is in the log.
    static constexpr qsizetype maximumLineLength() { return 20000; }
    /// The file holding everything appended since clear(); empty while nothing was dropped or cut.
    QString logPath() const;

private:
    struct Chunk {
        Kind kind;
        QString text;
    };
    void writeLog(const std::vector<Chunk>& chunks);
    /// Skips whole lines at the front of `chunks` beyond the bound (they are never inserted).
    void skipHead(std::vector<Chunk>& chunks);
    /// Cuts each line at maximumLineLength() characters (a line may span chunks and batches).
    void cutLongLines(std::vector<Chunk>& chunks);
    void insert(const std::vector<Chunk>& chunks);
    void trimTop();
    void showNote();
    QTextCharFormat formatOf(Kind kind) const;

    std::vector<Chunk> m_pending;
    QTimer m_batch;
    int m_maxLines = 10000;
    qint64 m_dropped = 0;
    qint64 m_cutLines = 0;
    qsizetype m_lineLength = 0; ///< characters of the last line so far (it has no newline yet)
    bool m_lineCut = false;     ///< the last line was cut already
    bool m_hasNote = false;
    std::unique_ptr<QTemporaryFile> m_log;
};

} // namespace gradstep::views
