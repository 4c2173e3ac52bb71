// Script diagnostics: the corpus of broken scripts under tests/python/scripts (each states its
// expected diagnostic in `# expect error:` and `# expect output:` comments), inputs too large to
// keep as files, and the formatting itself. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "run/diagnostic.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

namespace fs = std::filesystem;

struct Expectation {
    std::string error;               ///< "L:C: TYPE: MESSAGE" or "FILE:L:C: TYPE: MESSAGE"
    std::vector<std::string> output; ///< lines that must appear in the formatted diagnostic
};

Expectation readExpectation(const fs::path& script)
{
    std::ifstream in(script, std::ios::binary);
    Expectation e;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.rfind("# expect error: ", 0) == 0)
            e.error = line.substr(16);
        else if (line.rfind("# expect output: ", 0) == 0)
            e.output.push_back(line.substr(17));
    }
    return e;
}

/// "L:C: TYPE: MESSAGE" -> "SCRIPT:L:C: error: TYPE: MESSAGE" (FILE:... names a file beside it).
std::string expectedHeadline(const Expectation& e, const std::string& scriptName)
{
    const bool namesFile = !e.error.empty() && !std::isdigit(static_cast<unsigned char>(e.error[0]));
    const std::string located = namesFile ? e.error : scriptName + ":" + e.error;
    const auto lineEnd = located.find(':', located.find(".py:") + 4);
    const auto columnEnd = located.find(": ", lineEnd + 1);
    return located.substr(0, columnEnd) + ": error: " + located.substr(columnEnd + 2);
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

TEST_CASE("every script in tests/python/scripts gives the diagnostic its comments expect")
{
    const fs::path dir = GRADSTEP_PYTHON_SCRIPTS_DIR;
    std::vector<fs::path> scripts;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".py" && entry.path().filename().string()[0] != '_')
            scripts.push_back(entry.path());
    std::sort(scripts.begin(), scripts.end());
    REQUIRE(scripts.size() >= 15);
    for (const auto& script : scripts) {
        DYNAMIC_SECTION(script.filename().string())
        {
            const Expectation expected = readExpectation(script);
            REQUIRE_FALSE(expected.error.empty());
            const Outcome o = runFile(script);
            REQUIRE(o.result.status == RunStatus::Error);
            REQUIRE(o.result.diagnostic);
            // Paths print as given (absolute here); compare them relative to the corpus.
            const std::string text = replaceAll(o.result.diagnostic->format(), dir.string() + "/", "");
            INFO(text);
            CHECK(lines(text).front() == expectedHeadline(expected, script.filename().string()));
            const auto shown = lines(text);
            for (const auto& line : expected.output)
                CHECK(std::find(shown.begin(), shown.end(), line) != shown.end());
        }
    }
}

TEST_CASE("an expression nested too deeply for Python's parser is located by its line")
{
    std::string source = "a = 1\nb = 2\nc = " + std::string(100000, '-') + "1\nd = 4\n";
    const Outcome o = runSource(source);
    REQUIRE(o.result.status == RunStatus::Error);
    const Diagnostic& d = *o.result.diagnostic;
    INFO(d.format());
    CHECK(d.span.line == 3);
    CHECK(d.span.column == 1);
    CHECK((d.type == "MemoryError" || d.type == "RecursionError"));
    CHECK(d.headline().find("main.py:3:1: error: ") != std::string::npos);
    CHECK(d.format().find("...") != std::string::npos); // the 100,000-character line is cut
}

TEST_CASE("a long chain of additions that overflows the compiler's recursion is located too")
{
    std::string source = "x = 1\ny = 1";
    for (int i = 0; i < 100000; ++i)
        source += "+1";
    source += "\n";
    const Outcome o = runSource(source);
    REQUIRE(o.result.status == RunStatus::Error);
    CHECK(o.result.diagnostic->span.line == 2);
}

TEST_CASE("unbounded recursion prints the repeated frame once with a count")
{
    const Outcome o = runFile(fs::path(GRADSTEP_PYTHON_SCRIPTS_DIR) / "recursion.py");
    const std::string text = o.diagnostic();
    INFO(text);
    CHECK(text.find("[the frame above repeats ") != std::string::npos);
    CHECK(lines(text).size() < 20);
}

TEST_CASE("the caret sits under the column, tabs are kept, and the span is underlined")
{
    Diagnostic d;
    d.span = {"/x/a.py", "a.py", 12, 6, 12, 9};
    d.type = "NameError";
    d.message = "name 'foo' is not defined";
    d.sourceLine = "\tx = foo(1)";
    CHECK(d.format() == "a.py:12:6: error: NameError: name 'foo' is not defined\n"
                        "   12 | \tx = foo(1)\n"
                        "      | \t    ^~~\n");
}

TEST_CASE("a diagnostic without a line or a column leaves them out of the headline")
{
    Diagnostic d;
    d.span.displayFile = "a.py";
    d.type = "OSError";
    d.message = "cannot read the script";
    CHECK(d.headline() == "a.py: error: OSError: cannot read the script");
    d.span.line = 3;
    CHECK(d.headline() == "a.py:3: error: OSError: cannot read the script");
    d.type.clear();
    d.message = "stopped";
    CHECK(d.headline() == "a.py:3: error: stopped");
}

TEST_CASE("a very long line is shown as a window around the column")
{
    Diagnostic d;
    d.span = {"a.py", "a.py", 1, 500, 1, 501};
    d.type = "SyntaxError";
    d.sourceLine = std::string(1000, '(');
    const auto shown = lines(d.format());
    REQUIRE(shown.size() == 3);
    CHECK(shown[1].size() < 140);
    CHECK(shown[1].find("...") != std::string::npos);
    CHECK(shown[2].find('^') == shown[1].find('(') + 60);
}

TEST_CASE("NUL bytes are found with their line and column, counting characters")
{
    int line = 0, column = 0;
    CHECK_FALSE(findNulByte("x = 1\n", line, column));
    REQUIRE(findNulByte(std::string("a\n\xc3\xa9\xc3\xa9", 6) + std::string(1, '\0'), line, column));
    CHECK(line == 2);
    CHECK(column == 3);
}
