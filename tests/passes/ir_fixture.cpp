// Reading pass fixture files and matching CHECK lines. SPDX-License-Identifier: MIT
#include "tests/passes/ir_fixture.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gradstep::testing {

namespace {

std::string trim(const std::string& s)
{
    const std::size_t a = s.find_first_not_of(" \t\r");
    const std::size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The text after `prefix` when `line` (trimmed) starts with it.
std::optional<std::string> directive(const std::string& line, const std::string& prefix)
{
    const std::string t = trim(line);
    if (t.rfind(prefix, 0) != 0)
        return std::nullopt;
    return trim(t.substr(prefix.size()));
}

std::vector<std::string> splitPasses(const std::string& s)
{
    std::vector<std::string> passes;
    std::string current;
    for (char c : s + ",") {
        if (c == ',' || c == ' ') {
            if (!current.empty())
                passes.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    return passes;
}

void addLine(IrCase& c, const std::string& line, int number)
{
    if (auto run = directive(line, "// RUN:"))
        c.passes = splitPasses(*run);
    else if (auto changed = directive(line, "// CHANGED:"))
        c.changed = *changed == "true";
    else if (directive(line, "// NO-EXECUTE"))
        c.execute = false;
    else if (auto p = directive(line, "// CHECK-NEXT:"))
        c.checks.push_back({IrCheck::Kind::Next, *p, number});
    else if (auto p = directive(line, "// CHECK-NOT:"))
        c.checks.push_back({IrCheck::Kind::Not, *p, number});
    else if (auto p = directive(line, "// CHECK:"))
        c.checks.push_back({IrCheck::Kind::Check, *p, number});
    c.text += line + "\n";
}

} // namespace

std::vector<IrCase> readIrFixture(const std::string& path, const std::string& defaultPass)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open fixture " + path);
    std::vector<IrCase> cases(1);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (trim(line) == "// -----") {
            cases.emplace_back();
            cases.back().firstLine = number + 1;
            cases.back().text = std::string(static_cast<std::size_t>(number), '\n');
            continue;
        }
        addLine(cases.back(), line, number);
    }
    for (IrCase& c : cases)
        if (c.passes.empty())
            c.passes = {defaultPass};
    return cases;
}

std::string matchChecks(const std::string& output, const std::vector<IrCheck>& checks)
{
    std::vector<std::string> lines;
    std::istringstream stream(output);
    for (std::string l; std::getline(stream, l);)
        lines.push_back(l);
    std::size_t pos = 0;
    std::ptrdiff_t last = -1;
    std::vector<const IrCheck*> nots;
    auto violated = [&](std::size_t from, std::size_t to) -> std::string {
        for (const IrCheck* n : nots)
            for (std::size_t i = from; i < to && i < lines.size(); ++i)
                if (lines[i].find(n->pattern) != std::string::npos)
                    return "line " + std::to_string(n->line) + ": CHECK-NOT '" + n->pattern
                           + "' found in: " + lines[i];
        return "";
    };
    for (const IrCheck& check : checks) {
        if (check.kind == IrCheck::Kind::Not) {
            nots.push_back(&check);
            continue;
        }
        std::size_t found = lines.size();
        if (check.kind == IrCheck::Kind::Next) {
            const auto next = static_cast<std::size_t>(last + 1);
            if (next < lines.size() && lines[next].find(check.pattern) != std::string::npos)
                found = next;
        } else {
            for (std::size_t i = pos; i < lines.size() && found == lines.size(); ++i)
                if (lines[i].find(check.pattern) != std::string::npos)
                    found = i;
        }
        if (found == lines.size())
            return "line " + std::to_string(check.line) + ": no match for '" + check.pattern + "'";
        if (std::string v = violated(pos, found); !v.empty())
            return v;
        nots.clear();
        last = static_cast<std::ptrdiff_t>(found);
        pos = found + 1;
    }
    return violated(pos, lines.size());
}

} // namespace gradstep::testing
