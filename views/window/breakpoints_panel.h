// The editable breakpoint and watchpoint lists: add a condition in the Session's syntax
// (breakpoints "main.py:12", "op:Conv2D", "name:LeNet5/conv*", "phase:backward",
// "tensor:max_abs > 1e3"; watchpoints "nan", "exploding=1e3", "above:max_abs=100", ...), enable,
// disable, remove; a kind picker fills in an example of each kind. A bad condition shows its
// error under the input. Line breakpoints of the open script are the source gutter's: adding or
// removing one here toggles the gutter, and the gutter's show here. Conditions outlive the
// session: a what-if restart or a reopened script gets them again. SPDX-License-Identifier: MIT
#pragma once

#include "session/session.h"

#include <QSet>
#include <cstdint>
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace gradstep::views {

class BreakpointsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Breakpoint, Watchpoint };
    enum Column { On, KindColumn, Condition, Hits };

    /// What the panel asks of the window.
    struct Hooks {
        std::function<debug::Session*()> session;  ///< null while no session runs
        std::function<QString()> scriptFile;       ///< the open script's file name
        std::function<QSet<int>()> gutterLines;    ///< line breakpoints in the gutter
        std::function<void(int line)> toggleLine;  ///< the gutter's toggle
    };

    explicit BreakpointsPanel(Hooks hooks, QWidget* parent = nullptr);

    /// Adds `text` (a breakpoint, or a comma-separated watchpoint list); the error, empty when
    /// it was added. The error is also shown under the input.
    QString add(const QString& text, Kind kind);
    bool remove(int row);
    bool setEnabled(int row, bool enabled);
    /// Re-reads the rows (hit counts) from the session.
    void refresh();
    /// A new session replaced the old one (call at once); restore() then gives it the
    /// conditions added before, and the disabled marks, again.
    void sessionReplaced() { ++m_epoch; }
    void restore();

    int rowCount() const;
    Kind kindAt(int row) const;
    QString conditionAt(int row) const;
    bool enabledAt(int row) const;
    int hitsAt(int row) const;
    /// The session's id of the row's breakpoint or watchpoint.
    int idAt(int row) const;
    QString errorText() const;

private:
    struct Entry {
        Kind kind = Kind::Breakpoint;
        std::string text; ///< canonical (toString())
        bool enabled = true;
        int id = 0;       ///< in the session of `epoch`, 0 when not there
        std::uint64_t epoch = 0;
    };
    struct Row {
        Kind kind = Kind::Breakpoint;
        int id = 0;
        int line = 0;     ///< a gutter line breakpoint, else 0
        bool enabled = true;
    };

    int lineOf(const debug::Breakpoint& bp) const;
    int addToSession(const Entry& entry);
    /// The kind picker's examples for the breakpoint or watchpoint kinds.
    void fillTemplates();
    void showError(const QString& message);

    Hooks m_hooks;
    std::vector<Entry> m_entries;
    std::uint64_t m_epoch = 0; ///< sessions seen
    QSet<int> m_disabledLines;
    std::vector<Row> m_rows;
    QComboBox* m_kind = nullptr;
    QComboBox* m_template = nullptr;
    QLineEdit* m_input = nullptr;
    QLabel* m_error = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace gradstep::views
