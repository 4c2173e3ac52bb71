// Tests of the JSON value, parser and writer (core/io/json.cpp, json_parser.cpp).
// SPDX-License-Identifier: MIT
#include "io/json.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {

// The "line:col: message" of parsing text, or "" when it parses.
std::string parseError(const std::string& text)
{
    try {
        Json::parse(text);
    } catch (const JsonError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("every JSON kind parses to the matching value")
{
    Json doc = Json::parse(
        R"( {"a": [1, -2.5e3, 0.125, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00",
                                "nested": {"k": {}} , "e": []} )");
    REQUIRE(doc.isObject());
    CHECK(doc.size() == 4);
    const Json& a = doc["a"];
    CHECK(a[0].asInt() == 1);
    CHECK(a[1].asNumber() == -2500.0);
    CHECK(a[2].asNumber() == 0.125);
    CHECK(a[3].asBool());
    CHECK_FALSE(a[4].asBool());
    CHECK(a[5].isNull());
    CHECK(doc["s"].asString() == "x\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80");
    CHECK(doc["nested"]["k"].isObject());
    CHECK(doc["e"].isArray());
    CHECK(doc.asObject()[0].first == "a");
    CHECK(Json::parse("3").asNumber() == 3.0);
    CHECK(Json::parse("\"\"").asString().empty());
    CHECK(Json::parse("1e-400").asNumber() == 0.0);
}

TEST_CASE("malformed JSON is rejected with the line and column of the problem")
{
    CHECK(parseError("") == "1:1: unexpected end of input, expected a value");
    CHECK(parseError("[1, 2,]") == "1:7: unexpected ']', expected a value");
    CHECK(parseError("{\"a\": 1,\n \"b\": 2,\n}") == "3:1: expected a string key");
    CHECK(parseError("[01]") == "1:2: leading zeros are not allowed in numbers");
    CHECK(parseError("[1.]") == "1:4: expected a digit after the decimal point");
    CHECK(parseError("[-]") == "1:3: expected a digit");
    CHECK(parseError("1e400") == "1:1: number out of range: 1e400");
    CHECK(parseError("[NaN]") == "1:2: unexpected 'N', expected a value");
    CHECK(parseError("// c\n1") == "1:1: unexpected '/', expected a value");
    CHECK(parseError("\"abc") == "1:5: unterminated string");
    CHECK(parseError("\"a\tb\"") == "1:3: control character \\x09 in a string; write it escaped");
    CHECK(parseError("\"\\x\"") == "1:2: invalid escape '\\x'");
    CHECK(parseError("\"\\u12G4\"") == "1:2: \\u must be followed by four hex digits");
    CHECK(parseError("\"\\ud800x\"") == "1:2: high surrogate not followed by a low surrogate");
    CHECK(parseError("\"\\udc00\"") == "1:2: unpaired low surrogate in \\u escape");
    CHECK(parseError("\"\xC3\x28\"") == "1:2: invalid UTF-8 in a string");
    CHECK(parseError("\"\xC0\xAF\"") == "1:2: invalid UTF-8 in a string");
    CHECK(parseError("\"\xED\xA0\x80\"") == "1:2: invalid UTF-8 in a string");
    CHECK(parseError("{\"k\": 1, \"k\": 2}") == "1:10: duplicate key \"k\"");
    CHECK(parseError("{\"k\" 1}") == "1:6: expected ':' after an object key");
    CHECK(parseError("[1 2]") == "1:4: expected ',' or ']' in an array");
    CHECK(parseError("{} {}") == "1:4: unexpected '{' after the top-level value");
    CHECK(parseError("tru") == "1:1: unexpected 't', expected a value");
    CHECK(parseError("[1,") == "1:4: unexpected end of input, expected a value");
    CHECK(parseError("\xEF\xBB\xBF{}") == "1:1: a byte order mark is not allowed");
    CHECK(parseError("[\"\xC3\xA9\", x]") == "1:7: unexpected 'x', expected a value");
    CHECK(parseError(std::string(600, '[') + std::string(600, ']'))
          == "1:513: nesting deeper than 512 levels");
    CHECK(parseError(std::string(512, '[') + std::string(512, ']')).empty());
}

TEST_CASE("the writer escapes strings and round-trips numbers")
{
    Json doc;
    doc["name"] = "a\"b\\c\n\x01";
    doc["pi"] = 3.141592653589793;
    doc["n"] = 42;
    doc["tiny"] = 1e-300;
    doc["list"].push_back(true);
    doc["list"].push_back(nullptr);
    doc["empty"] = Json::object();
    CHECK(doc.dump()
          == R"({"name":"a\"b\\c\n\u0001","pi":3.141592653589793,"n":42,"tiny":1e-300,)"
             R"("list":[true,null],"empty":{}})");
    CHECK(Json::parse(doc.dump()) == doc);
    CHECK(Json::parse(doc.dump(2)) == doc);
    CHECK(Json::parse("[1,{\"a\":[]}]").dump(2) == "[\n  1,\n  {\n    \"a\": []\n  }\n]");
    CHECK_THROWS_AS(Json(std::nan("")).dump(), ValueError);
}

TEST_CASE("typed access names the kind it expected")
{
    const Json doc = Json::parse(R"({"x": "text", "n": 2.5, "list": [1]})");
    CHECK_THROWS_WITH(doc["x"].asNumber(), "expected a JSON number, got string");
    CHECK_THROWS_AS(doc["n"].asInt(), ValueError);
    CHECK_THROWS_WITH(doc["missing"], "JSON object has no member 'missing'");
    CHECK_THROWS_AS(doc["list"][1], IndexError);
    CHECK(doc.find("missing") == nullptr);
    CHECK(doc.contains("n"));
}

TEST_CASE("a file's parse errors carry its path")
{
    CHECK_THROWS_AS(Json::parseFile("/nonexistent/file.json"), RuntimeError);
    const Json golden = Json::parseFile(GRADSTEP_GOLDEN_DIR "/golden_linear.json");
    CHECK(golden["model"].asString() == "linear");
}
