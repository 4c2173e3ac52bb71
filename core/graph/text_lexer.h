// Tokens of the graph text form, for text_parser.cpp. SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace gradstep {

enum class TokenKind { End, Value, At, Ident, Number, String, Location, Punct };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string
        text; ///< Value / At: the name without % or @; String: unescaped; Punct: the character
    int line = 1;
    int column = 1;
};

class TextLexer {
public:
    explicit TextLexer(std::string_view text) : m_text(text) {}
    /// The next token; throws TextParseError (via error()) on a character it cannot start a token
    /// with.
    Token next();

private:
    void skipSpaceAndComments();
    char peek(std::size_t ahead = 0) const
    {
        return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
    }
    char advance();
    std::string quotedString(char quote, const Token& start);
    std::string takeWhile(bool (*accept)(char));

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
};

/// "LINE:COL: error: message" (the parser prefixes the source name).
[[noreturn]] void throwParseError(const std::string& message, int line, int column);

} // namespace gradstep
