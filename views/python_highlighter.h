// Python syntax colours for the source view: keywords, builtins, strings (triple-quoted ones
// across lines), numbers, comments, decorators and the names after def/class.
// SPDX-License-Identifier: MIT
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace gradstep::views {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    /// Colours the text from `start` up to the closing delimiter of the triple-quoted string
    /// `state` stands for; returns the position after it, or -1 when the string goes on.
    int continueTripleString(const QString& text, int start, int state);

    std::vector<Rule> m_rules;
    QTextCharFormat m_string;
    QTextCharFormat m_comment;
};

} // namespace gradstep::views
