// The token cursor of the graph text parser: one-token lookahead, expectations with line:col
// errors, and the literal rules (types, numbers, attributes, locations). SPDX-License-Identifier:
// MIT
#pragma once

#include "graph/graph.h"
#include "graph/text_lexer.h"

#include <map>
#include <memory>

namespace gradstep {

class TokenCursor {
public:
    explicit TokenCursor(std::string_view text) : m_lexer(text) { m_token = m_lexer.next(); }

    const Token& current() const { return m_token; }
    Token take();
    bool isPunct(char c) const;
    bool isIdent(std::string_view s) const;
    void expectPunct(char c);
    void expectIdent(std::string_view s);
    /// "'%x'", "'return'", "the end of the input": the current token in a message.
    std::string describe() const;
    [[noreturn]] void error(const std::string& message) const;
    [[noreturn]] static void errorAt(const Token& t, const std::string& message);

    TensorSpec parseType();
    std::int64_t parseInteger();
    double parseNumber();
    /// A constant element: a number, true, false, inf or nan.
    double parseLiteralNumber();
    Attrs parseAttrs();
    AttrValue parseAttrValue();
    std::vector<std::int64_t> parseIntTuple();
    SourceLocation parseLocation(const Token& t);

private:
    TextLexer m_lexer;
    Token m_token;
    std::map<std::string, std::shared_ptr<const std::string>> m_files; ///< one shared name per file
};

} // namespace gradstep
