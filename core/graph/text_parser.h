// Reads the text form of a graph (Note [Graph text form] in text_format.h) back into a Graph,
// running every op's shape rule and checking it against the printed types.
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <string>
#include <string_view>

namespace gradstep {

/// "<source>:LINE:COL: error: message", with the position of the offending token.
class TextParseError : public ValueError {
public:
    TextParseError(const std::string& message, int line, int column)
        : ValueError(message), m_line(line), m_column(column)
    {
    }
    int line() const { return m_line; }
    int column() const { return m_column; }

private:
    int m_line;
    int m_column;
};

/// Parses one graph; `//` comments are skipped. sourceName prefixes error positions.
Graph parseGraph(std::string_view text, std::string_view sourceName = "<ir>");

} // namespace gradstep
