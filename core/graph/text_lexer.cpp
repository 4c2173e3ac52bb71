// Tokens of the graph text form. SPDX-License-Identifier: MIT
#include "graph/text_lexer.h"

#include "graph/text_parser.h"

#include <cctype>

namespace gradstep {

namespace {
bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
bool isPathChar(char c) { return isNameChar(c) || c == '/' || c == '-'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isNumberChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
}
bool notNewline(char c) { return c != '\n'; }
} // namespace

void throwParseError(const std::string& message, int line, int column)
{
    throw TextParseError(
        std::to_string(line) + ":" + std::to_string(column) + ": error: " + message, line, column);
}

char TextLexer::advance()
{
    const char c = m_text[m_pos++];
    if (c == '\n') {
        ++m_line;
        m_column = 1;
    } else {
        ++m_column;
    }
    return c;
}

std::string TextLexer::takeWhile(bool (*accept)(char))
{
    std::string s;
    while (m_pos < m_text.size() && accept(peek()))
        s += advance();
    return s;
}

void TextLexer::skipSpaceAndComments()
{
    for (;;) {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(peek())))
            advance();
        if (peek() != '/' || peek(1) != '/')
            return;
        takeWhile(notNewline);
    }
}

std::string TextLexer::quotedString(char quote, const Token& start)
{
    advance();
    std::string s;
    for (;;) {
        if (m_pos >= m_text.size() || peek() == '\n')
            throwParseError("unterminated string", start.line, start.column);
        const char c = advance();
        if (c == quote)
            return s;
        if (c != '\\') {
            s += c;
            continue;
        }
        if (m_pos >= m_text.size())
            throwParseError("unterminated string", start.line, start.column);
        const char escaped = advance();
        s += escaped == 'n' ? '\n' : escaped;
    }
}

Token TextLexer::next()
{
    skipSpaceAndComments();
    Token token;
    token.line = m_line;
    token.column = m_column;
    if (m_pos >= m_text.size())
        return token;
    const char c = peek();
    if (c == '%' || c == '@') {
        advance();
        token.kind = c == '%' ? TokenKind::Value : TokenKind::At;
        token.text = peek() == '"' ? quotedString('"', token)
                                   : takeWhile(c == '%' ? isNameChar : isPathChar);
        if (token.text.empty())
            throwParseError(std::string("expected a name after '") + c + "'", token.line,
                            token.column);
    } else if (c == '#') {
        advance();
        token.kind = TokenKind::Location;
        token.text = takeWhile(notNewline);
        while (!token.text.empty() && std::isspace(static_cast<unsigned char>(token.text.front())))
            token.text.erase(0, 1);
        while (!token.text.empty() && std::isspace(static_cast<unsigned char>(token.text.back())))
            token.text.pop_back();
    } else if (c == '\'') {
        token.kind = TokenKind::String;
        token.text = quotedString('\'', token);
    } else if (std::isdigit(static_cast<unsigned char>(c))
               || (c == '-' && peek(1) != '\0' && peek(1) != ' ')) {
        token.kind = TokenKind::Number;
        token.text = advance();
        token.text += takeWhile(isNumberChar);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        token.kind = TokenKind::Ident;
        token.text = takeWhile(isIdentChar);
    } else if (std::string_view("(){}[],=:").find(c) != std::string_view::npos) {
        token.kind = TokenKind::Punct;
        token.text = advance();
    } else {
        throwParseError(std::string("unexpected character '") + c + "'", token.line, token.column);
    }
    return token;
}

} // namespace gradstep
