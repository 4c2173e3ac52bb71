// Formatting of script diagnostics (compiler style, as GCC and Clang print them).
// SPDX-License-Identifier: MIT
#include "run/diagnostic.h"

#include <algorithm>
#include <cstdio>

namespace gradstep::run {

namespace {

// Very long lines (2,000 nested parentheses, generated code) are shown as a window around the
// column, so the caret stays on screen.
constexpr int kMaxShownCharacters = 120;
constexpr int kWindowBefore = 60;

bool isContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Byte offsets of the starts of the line's characters, plus the end.
std::vector<std::size_t> characterStarts(std::string_view line)
{
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < line.size(); ++i)
        if (!isContinuationByte(static_cast<unsigned char>(line[i])))
            starts.push_back(i);
    starts.push_back(line.size());
    return starts;
}

std::string location(const SourceSpan& span)
{
    std::string s = span.displayFile.empty() ? span.file : span.displayFile;
    if (span.line > 0) {
        s += ":" + std::to_string(span.line);
        if (span.column > 0)
            s += ":" + std::to_string(span.column);
    }
    return s;
}

// Text under the source line: the caret at the span's first column, tildes to its end on that
// line. Tabs before the caret are copied so it lines up in any tab width.
std::string caretLine(std::string_view shown, int firstChar, int caretChar, int endChar)
{
    const auto starts = characterStarts(shown);
    const int count = static_cast<int>(starts.size()) - 1;
    std::string out;
    for (int c = firstChar; c < caretChar && c - firstChar < count; ++c)
        out += shown[starts[static_cast<std::size_t>(c - firstChar)]] == '\t' ? '\t' : ' ';
    out += '^';
    const int last = std::min(endChar, firstChar + count);
    for (int c = caretChar + 1; c < last; ++c)
        out += '~';
    return out;
}

void appendSource(std::string& out, const Diagnostic& d)
{
    std::string_view line = d.sourceLine;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    const auto starts = characterStarts(line);
    const int length = static_cast<int>(starts.size()) - 1;
    // 0-based character indices of the caret and the end of the underline on this line.
    const int caret = std::clamp(d.span.column > 0 ? d.span.column - 1 : 0, 0, std::max(length - 1, 0));
    int end = caret + 1;
    if (d.span.endLine == d.span.line && d.span.endColumn > d.span.column)
        end = d.span.endColumn - 1;
    else if (d.span.endLine > d.span.line)
        end = length;
    end = std::clamp(end, caret + 1, std::max(length, caret + 1));

    int first = 0;
    int last = length;
    if (length > kMaxShownCharacters) {
        first = std::max(0, caret - kWindowBefore);
        last = std::min(length, first + kMaxShownCharacters);
    }
    const std::size_t from = starts[static_cast<std::size_t>(first)];
    const std::size_t to = starts[static_cast<std::size_t>(last)];
    const std::string prefix = first > 0 ? "..." : "";
    const std::string suffix = last < length ? "..." : "";
    char gutter[32];
    std::snprintf(gutter, sizeof gutter, "%5d | ", d.span.line);
    out += gutter + prefix + std::string(line.substr(from, to - from)) + suffix + "\n";
    if (d.span.column > 0)
        out += "      | " + std::string(prefix.size(), ' ')
               + caretLine(line.substr(from, to - from), first, caret, std::min(end, last)) + "\n";
}

bool sameFrame(const TraceFrame& a, const TraceFrame& b)
{
    return a.span.file == b.span.file && a.span.line == b.span.line && a.span.column == b.span.column
           && a.function == b.function;
}

// Runs of one frame (unbounded recursion) are shown once with a count, as Python does.
void appendTraceback(std::string& out, const std::vector<TraceFrame>& frames)
{
    for (std::size_t i = 0; i < frames.size();) {
        std::size_t run = 1;
        while (i + run < frames.size() && sameFrame(frames[i], frames[i + run]))
            ++run;
        out += "  " + location(frames[i].span) + ": in " + frames[i].function + "\n";
        if (run > 1)
            out += "  [the frame above repeats " + std::to_string(run - 1) + " more time"
                   + (run == 2 ? "" : "s") + "]\n";
        i += run;
    }
}

} // namespace

std::string Diagnostic::headline() const
{
    std::string s = location(span) + ": error: ";
    if (!type.empty())
        s += message.empty() ? type : type + ": " + message;
    else
        s += message;
    return s;
}

std::string Diagnostic::format() const
{
    std::string out = headline() + "\n";
    if (span.line > 0 && !sourceLine.empty())
        appendSource(out, *this);
    for (const auto& note : notes)
        out += "note: " + note + "\n";
    if (traceback.size() > 1) {
        out += "traceback (most recent call last):\n";
        appendTraceback(out, traceback);
    }
    return out;
}

bool findNulByte(std::string_view source, int& line, int& column)
{
    const std::size_t nul = source.find('\0');
    if (nul == std::string_view::npos)
        return false;
    line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < nul; ++i)
        if (source[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    column = utf8Characters(source.substr(lineStart), nul - lineStart) + 1;
    return true;
}

int utf8Characters(std::string_view line, std::size_t bytes)
{
    bytes = std::min(bytes, line.size());
    int count = 0;
    for (std::size_t i = 0; i < bytes; ++i)
        count += isContinuationByte(static_cast<unsigned char>(line[i])) ? 0 : 1;
    return count;
}

} // namespace gradstep::run
