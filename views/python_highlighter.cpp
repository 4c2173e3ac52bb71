// SPDX-License-Identifier: MIT
#include "views/python_highlighter.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace gradstep::views {

namespace {

enum BlockState { kNone = 0, kTripleDouble = 1, kTripleSingle = 2 };

bool darkPalette()
{
    return QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
}

QTextCharFormat makeFormat(const char* light, const char* dark, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(QColor(darkPalette() ? dark : light));
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

const char* kKeywords[] = {"and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "None", "True", "False"};
const char* kBuiltins[] = {"print", "range", "len", "enumerate", "zip", "isinstance", "super",
    "float", "int", "str", "list", "dict", "tuple", "abs", "min", "max", "sum", "self"};

QString wordPattern(const char* const* words, std::size_t n)
{
    QStringList list;
    for (std::size_t i = 0; i < n; ++i)
        list << QString::fromLatin1(words[i]);
    return QStringLiteral("\\b(?:%1)\\b").arg(list.join(QLatin1Char('|')));
}

} // namespace

PythonHighlighter::PythonHighlighter(QTextDocument* document) : QSyntaxHighlighter(document)
{
    m_rules.push_back({QRegularExpression(wordPattern(kKeywords, std::size(kKeywords))),
                       makeFormat("#0033b3", "#cc7832", true)});
    m_rules.push_back({QRegularExpression(wordPattern(kBuiltins, std::size(kBuiltins))),
                       makeFormat("#7a3e9d", "#b48ead")});
    m_rules.push_back({QRegularExpression(QStringLiteral("\\b[0-9][0-9_]*(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?\\b")),
                       makeFormat("#1750eb", "#6897bb")});
    m_rules.push_back({QRegularExpression(QStringLiteral("^\\s*@[A-Za-z_][A-Za-z0-9_.]*")),
                       makeFormat("#9e880d", "#bbb529")});
    m_rules.push_back({QRegularExpression(QStringLiteral("\\b(?:def|class)\\s+([A-Za-z_][A-Za-z0-9_]*)")),
                       makeFormat("#00627a", "#ffc66d", true), 1});
    m_string = makeFormat("#067d17", "#6a8759");
    m_comment = makeFormat("#8c8c8c", "#808080", false, true);
}

int PythonHighlighter::continueTripleString(const QString& text, int start, int state)
{
    const QString delimiter = state == kTripleDouble ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
    const int end = text.indexOf(delimiter, start);
    if (end < 0) {
        setFormat(start, int(text.size()) - start, m_string);
        setCurrentBlockState(state);
        return -1;
    }
    setFormat(start, end + 3 - start, m_string);
    return end + 3;
}

void PythonHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : m_rules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart(rule.group)), int(m.capturedLength(rule.group)), rule.format);
        }
    }
    setCurrentBlockState(kNone);
    int i = 0;
    if (previousBlockState() == kTripleDouble || previousBlockState() == kTripleSingle) {
        i = continueTripleString(text, 0, previousBlockState());
        if (i < 0)
            return;
    }
    // One scan for strings and comments, so a '#' inside a string is not a comment.
    while (i < text.size()) {
        const QChar c = text[i];
        if (c == QLatin1Char('#')) {
            setFormat(i, int(text.size()) - i, m_comment);
            return;
        }
        if (c != QLatin1Char('"') && c != QLatin1Char('\'')) {
            ++i;
            continue;
        }
        if (text.mid(i, 3) == QString(3, c)) {
            setFormat(i, 3, m_string);
            i = continueTripleString(text, i + 3, c == QLatin1Char('"') ? kTripleDouble : kTripleSingle);
            if (i < 0)
                return;
            continue;
        }
        int j = i + 1;
        while (j < text.size() && text[j] != c)
            j += text[j] == QLatin1Char('\\') ? 2 : 1;
        j = std::min<int>(j + 1, int(text.size()));
        setFormat(i, j - i, m_string);
        i = j;
    }
}

} // namespace gradstep::views
