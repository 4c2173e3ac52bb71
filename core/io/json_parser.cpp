// The strict JSON parser (RFC 8259), recursive descent with one function per grammar rule.
// SPDX-License-Identifier: MIT
#include "io/json.h"

#include <charconv>

namespace gradstep {

namespace {

constexpr int kMaxDepth = 512;

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Json document()
    {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
            fail("a byte order mark is not allowed");
        skipWhitespace();
        Json v = value(0);
        skipWhitespace();
        if (m_pos < m_text.size())
            fail("unexpected '" + describe(m_text[m_pos]) + "' after the top-level value");
        return v;
    }

private:
    // value = object / array / string / number / "true" / "false" / "null"
    Json value(int depth)
    {
        if (m_pos >= m_text.size())
            fail("unexpected end of input, expected a value");
        const char c = m_text[m_pos];
        if (c == '{')
            return object(depth + 1);
        if (c == '[')
            return array(depth + 1);
        if (c == '"')
            return Json(string());
        if (c == '-' || (c >= '0' && c <= '9'))
            return number();
        if (literal("true"))
            return Json(true);
        if (literal("false"))
            return Json(false);
        if (literal("null"))
            return Json();
        fail("unexpected '" + describe(c) + "', expected a value");
    }

    // object = "{" [ string ":" value *( "," string ":" value ) ] "}"
    Json object(int depth)
    {
        checkDepth(depth);
        ++m_pos;
        Json::Object members;
        skipWhitespace();
        if (consume('}'))
            return Json(std::move(members));
        for (;;) {
            skipWhitespace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                failHere("expected a string key");
            const std::size_t keyPos = m_pos;
            std::string key = string();
            for (const auto& member : members)
                if (member.first == key)
                    failAt(keyPos, "duplicate key \"" + key + "\"");
            skipWhitespace();
            if (!consume(':'))
                failHere("expected ':' after an object key");
            skipWhitespace();
            Json v = value(depth);
            members.emplace_back(std::move(key), std::move(v));
            skipWhitespace();
            if (consume('}'))
                return Json(std::move(members));
            if (!consume(','))
                failHere("expected ',' or '}' in an object");
        }
    }

    // array = "[" [ value *( "," value ) ] "]"
    Json array(int depth)
    {
        checkDepth(depth);
        ++m_pos;
        Json::Array items;
        skipWhitespace();
        if (consume(']'))
            return Json(std::move(items));
        for (;;) {
            skipWhitespace();
            items.push_back(value(depth));
            skipWhitespace();
            if (consume(']'))
                return Json(std::move(items));
            if (!consume(','))
                failHere("expected ',' or ']' in an array");
        }
    }

    // number = [ "-" ] ( "0" / digit1-9 *digit ) [ "." 1*digit ]
    //          [ ( "e" / "E" ) [ "-" / "+" ] 1*digit ]
    Json number()
    {
        const std::size_t start = m_pos;
        consume('-');
        if (consume('0')) {
            if (digit())
                failAt(start, "leading zeros are not allowed in numbers");
        } else if (!digits()) {
            failHere("expected a digit");
        }
        if (consume('.') && !digits())
            failHere("expected a digit after the decimal point");
        if (consume('e') || consume('E')) {
            if (!consume('+'))
                consume('-');
            if (!digits())
                failHere("expected a digit in the exponent");
        }
        double v = 0.0;
        const char* first = m_text.data() + start;
        const char* last = m_text.data() + m_pos;
        const auto result = std::from_chars(first, last, v);
        if (result.ec == std::errc::result_out_of_range && !tinyNumber(start))
            failAt(start, "number out of range: " + std::string(first, last));
        return Json(v);
    }

    // string = quotation-mark *char quotation-mark, validating escapes and UTF-8
    std::string string()
    {
        ++m_pos;
        std::string out;
        for (;;) {
            if (m_pos >= m_text.size())
                fail("unterminated string");
            const unsigned char c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c < 0x20)
                failHere("control character " + describe(static_cast<char>(c))
                         + " in a string; write it escaped");
            if (c == '\\') {
                escape(out);
            } else if (c < 0x80) {
                out += static_cast<char>(c);
                ++m_pos;
            } else {
                utf8Sequence(out);
            }
        }
    }

    void escape(std::string& out)
    {
        const std::size_t start = m_pos++;
        if (m_pos >= m_text.size())
            fail("unterminated string");
        const char c = m_text[m_pos++];
        switch (c) {
        case '"': out += '"'; return;
        case '\\': out += '\\'; return;
        case '/': out += '/'; return;
        case 'b': out += '\b'; return;
        case 'f': out += '\f'; return;
        case 'n': out += '\n'; return;
        case 'r': out += '\r'; return;
        case 't': out += '\t'; return;
        case 'u': break;
        default: failAt(start, "invalid escape '\\" + describe(c) + "'");
        }
        std::uint32_t code = hex4(start);
        if (code >= 0xDC00 && code <= 0xDFFF)
            failAt(start, "unpaired low surrogate in \\u escape");
        if (code >= 0xD800 && code <= 0xDBFF) {
            if (m_text.substr(m_pos, 2) != "\\u")
                failAt(start, "high surrogate not followed by a low surrogate");
            m_pos += 2;
            const std::uint32_t low = hex4(start);
            if (low < 0xDC00 || low > 0xDFFF)
                failAt(start, "high surrogate not followed by a low surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, code);
    }

    std::uint32_t hex4(std::size_t escapeStart)
    {
        std::uint32_t code = 0;
        for (int i = 0; i < 4; ++i, ++m_pos) {
            const char c = m_pos < m_text.size() ? m_text[m_pos] : '\0';
            const int d = hexValue(c);
            if (d < 0)
                failAt(escapeStart, "\\u must be followed by four hex digits");
            code = code * 16 + static_cast<std::uint32_t>(d);
        }
        return code;
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    // One multi-byte UTF-8 character, rejecting overlong forms, surrogates and values > U+10FFFF.
    void utf8Sequence(std::string& out)
    {
        const std::size_t start = m_pos;
        const auto lead = static_cast<unsigned char>(m_text[m_pos]);
        const int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
        if (length == 0 || lead > 0xF4 || m_pos + static_cast<std::size_t>(length) > m_text.size())
            failAt(start, "invalid UTF-8 in a string");
        std::uint32_t code = lead & (0x7F >> length);
        for (int i = 1; i < length; ++i) {
            const auto next =
                static_cast<unsigned char>(m_text[m_pos + static_cast<std::size_t>(i)]);
            if ((next & 0xC0) != 0x80)
                failAt(start, "invalid UTF-8 in a string");
            code = (code << 6) | (next & 0x3F);
        }
        static const std::uint32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < minimum[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            failAt(start, "invalid UTF-8 in a string");
        out.append(m_text.substr(m_pos, static_cast<std::size_t>(length)));
        m_pos += static_cast<std::size_t>(length);
    }

    static void appendUtf8(std::string& out, std::uint32_t code)
    {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    // Underflow (1e-400) reads as 0 or a subnormal, as JSON readers do; overflow is an error.
    bool tinyNumber(std::size_t start) const
    {
        const std::string_view text = m_text.substr(start, m_pos - start);
        const std::size_t e = text.find_first_of("eE");
        return e != std::string_view::npos && e + 1 < text.size() && text[e + 1] == '-';
    }

    bool digit() const
    {
        return m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9';
    }

    bool digits()
    {
        const std::size_t start = m_pos;
        while (digit())
            ++m_pos;
        return m_pos > start;
    }

    bool consume(char c)
    {
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    void skipWhitespace()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'
                   || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    void checkDepth(int depth)
    {
        if (depth > kMaxDepth)
            failHere("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    }

    static std::string describe(char c)
    {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F)
            return std::string(1, c);
        static const char* const hex = "0123456789abcdef";
        return std::string("\\x") + hex[u >> 4] + hex[u & 0xF];
    }

    [[noreturn]] void fail(const std::string& message) const { failAt(m_pos, message); }
    [[noreturn]] void failHere(const std::string& message) const
    {
        if (m_pos >= m_text.size())
            failAt(m_pos, "unexpected end of input, " + message);
        failAt(m_pos, message);
    }

    // Line and column of a byte offset; the column counts UTF-8 characters, not bytes.
    [[noreturn]] void failAt(std::size_t offset, const std::string& message) const
    {
        int line = 1, column = 1;
        for (std::size_t i = 0; i < offset && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80) {
                ++column;
            }
        }
        throw JsonError(line, column, message);
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

} // namespace

Json Json::parse(std::string_view text) { return Parser(text).document(); }

} // namespace gradstep
