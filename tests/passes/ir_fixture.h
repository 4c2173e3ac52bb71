// Text-in/text-out pass tests: a fixture file holds graphs in the text form, each with the
// passes to run and CHECK lines the printed result must match (like MLIR's lit tests).
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gradstep::testing {

/// One `// CHECK:`, `// CHECK-NEXT:` or `// CHECK-NOT:` line.
struct IrCheck {
    enum class Kind { Check, Next, Not };
    Kind kind = Kind::Check;
    std::string pattern;
    int line = 0;
};

/// One case of a fixture file (cases are separated by `// -----` lines).
struct IrCase {
    std::string text; ///< the case's lines, preceded by blank lines so positions match the file
    int firstLine = 1;
    std::vector<std::string> passes; ///< `// RUN: a, b` (default: the file's pass)
    std::optional<bool> changed;     ///< `// CHANGED: true|false`
    bool execute = true;             ///< `// NO-EXECUTE` skips comparing results before and after
    std::vector<IrCheck> checks;
};

std::vector<IrCase> readIrFixture(const std::string& path, const std::string& defaultPass);

/// Empty when every check passes in order, else what failed (FileCheck's semantics, substring
/// patterns: CHECK finds the next line containing it, CHECK-NEXT must be on the line after the
/// previous match, CHECK-NOT must not occur between the surrounding matches).
std::string matchChecks(const std::string& output, const std::vector<IrCheck>& checks);

} // namespace gradstep::testing
