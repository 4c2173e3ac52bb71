// Breakpoints: pause when a recorded node is at a source line, is an op type, has a full name
// matching a glob, starts a new phase, or produced a tensor satisfying a stat condition.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/node_record.h"
#include "debug/stat_condition.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep::debug {

/// fnmatch without flags: '*' any run (slashes too), '?' one character, "[abc]", "[a-z]",
/// "[!abc]" one of / not one of a set; '\' escapes the next character.
bool globMatch(std::string_view pattern, std::string_view text);

struct Breakpoint {
    enum class Kind : std::uint8_t { SourceLine, OpType, NameGlob, PhaseChange, TensorPredicate };

    int id = 0;
    bool enabled = true;
    int hitCount = 0;
    Kind kind = Kind::SourceLine;
    /// SourceLine: empty file matches any file; otherwise the record's file must equal it or end
    /// with "/" + file. Matches forward and update nodes (a backward node only carries the
    /// location of its forward node), once per arrival at the line.
    std::string file;
    int line = 0;
    /// SourceLine: why it cannot stop, shown as an unverified breakpoint: "no code on line 12"
    /// (known when added), "line 12 never ran" (after a run that did not reach it); empty otherwise.
    std::string unverified;
    std::string pattern; ///< OpType: op name or display label; NameGlob: glob over the full name
    Phase phase = Phase::Forward;
    StatCondition condition; ///< TensorPredicate: any defined output

    /// SourceLine: whether `path` (an absolute file name) is the breakpoint's file: the rule above.
    bool inFile(const std::string& path) const;
    /// The command-line text: "main.py:27", "27", "op:Conv2D", "name:LeNet5/conv*", ...
    std::string toString() const;
};

/// Why a breakpoint matched, for the status line and the --json output.
struct Hit {
    int breakpointId = 0;
    std::uint64_t recordSeq = 0;
    std::optional<std::size_t> output; ///< TensorPredicate: the output that satisfied it
    double value = 0.0;                ///< TensorPredicate: that output's statistic
    std::string message;               ///< "op Conv2D at LeNet5/conv1/Conv2D (main.py:27)"
};

/// One breakpoint against one record; `previous` is the record executed just before (null at
/// the start), needed for phase changes and to hit a line once per arrival. Ignores `enabled`.
std::optional<Hit> matchBreakpoint(const Breakpoint& bp, const NodeRecord& record,
                                   const NodeRecord* previous);

/// LINE, FILE:LINE, op:TYPE, name:GLOB, phase:forward|backward|update, tensor:STAT OP NUMBER.
/// ValueError naming the text and what was expected.
Breakpoint parseBreakpoint(std::string_view text);

class BreakpointSet {
public:
    /// Assigns and returns a fresh id.
    int add(Breakpoint bp);
    int add(std::string_view text) { return add(parseBreakpoint(text)); }
    bool remove(int id);
    bool setEnabled(int id, bool enabled);
    void clear() { m_breakpoints.clear(); }
    const std::vector<Breakpoint>& all() const { return m_breakpoints; }
    std::vector<Breakpoint>& mutableAll() { return m_breakpoints; }
    /// A new run counts its hits from zero.
    void resetHits();
    const Breakpoint* find(int id) const;

    /// The first enabled breakpoint (in the order added) that matches; counts the hit. `skipId`:
    /// a line breakpoint that already stopped at this arrival at its line (before the line ran).
    std::optional<Hit> match(const NodeRecord& record, const NodeRecord* previous, int skipId = 0);
    /// The first enabled line breakpoint on `line` of `file` (a line about to run, whether or not
    /// it runs an op); counts the hit. Hit::recordSeq is 0: no node is involved.
    std::optional<Hit> matchLine(const std::string& file, int line);
    /// Any enabled line breakpoint: the script's lines are then traced.
    bool anyLine() const;

private:
    std::vector<Breakpoint> m_breakpoints;
    int m_nextId = 1;
};

} // namespace gradstep::debug
