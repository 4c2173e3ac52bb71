// The script's print output and the debugger's diagnostics, appended as they come.
// SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>

namespace gradstep::views {

class ConsoleView : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Kind { Stdout, Stderr, Diagnostic, Info };

    explicit ConsoleView(QWidget* parent = nullptr);
    /// Appends `text` as it came (no newline added), coloured by kind.
    void append(const QString& text, Kind kind);
};

} // namespace gradstep::views
