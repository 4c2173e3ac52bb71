// Breakpoints. SPDX-License-Identifier: MIT
#include "debug/breakpoints.h"

#include "io/number_format.h"

#include <algorithm>
#include <cmath>

namespace gradstep::debug {

namespace {

// Matches one bracket expression at p[0] == '['; advances p past it. Returns nullopt for a
// '[' without a closing ']', which then matches itself literally as fnmatch does.
std::optional<bool> matchSet(std::string_view pattern, std::size_t& p, char c)
{
    std::size_t i = p + 1;
    const bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
    if (negate)
        ++i;
    bool matched = false;
    bool first = true;
    for (; i < pattern.size() && (first || pattern[i] != ']'); first = false) {
        const char lo = pattern[i];
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            matched = matched || (lo <= c && c <= pattern[i + 2]);
            i += 3;
        } else {
            matched = matched || lo == c;
            ++i;
        }
    }
    if (i >= pattern.size())
        return std::nullopt;
    p = i + 1;
    return matched != negate;
}

bool endsWithPath(const std::string& path, const std::string& file)
{
    if (path == file)
        return true;
    return path.size() > file.size() && path.compare(path.size() - file.size(), file.size(), file) == 0
           && (path[path.size() - file.size() - 1] == '/' || path[path.size() - file.size() - 1] == '\\');
}

bool sameLine(const NodeRecord& a, const NodeRecord& b)
{
    return a.phase == b.phase && a.location.line == b.location.line && a.location.file && b.location.file
           && *a.location.file == *b.location.file;
}

std::optional<Hit> matchTensor(const Breakpoint& bp, const NodeRecord& r)
{
    for (std::size_t i = 0; i < r.outputs.size(); ++i) {
        const TensorRecord& out = r.outputs[i];
        if (!out.defined || !bp.condition.holds(out.stats))
            continue;
        Hit hit;
        hit.output = i;
        hit.value = statValue(out.stats, bp.condition.stat);
        hit.message = "output " + std::to_string(i) + " of " + r.where() + " has "
                      + std::string(statName(bp.condition.stat)) + " " + formatNumber(hit.value) + " "
                      + std::string(compareSymbol(bp.condition.compare)) + " "
                      + formatNumber(bp.condition.threshold);
        return hit;
    }
    return std::nullopt;
}

std::optional<Hit> matchKind(const Breakpoint& bp, const NodeRecord& r, const NodeRecord* previous)
{
    Hit hit;
    switch (bp.kind) {
    case Breakpoint::Kind::SourceLine:
        if (r.phase == Phase::Backward || r.location.line != bp.line || !r.location.file
            || !bp.inFile(*r.location.file)
            || (previous && sameLine(r, *previous)))
            return std::nullopt;
        hit.message = "line " + r.locationText() + " reached: op " + r.op + " at " + r.where();
        return hit;
    case Breakpoint::Kind::OpType:
        if (r.op != bp.pattern && r.label != bp.pattern)
            return std::nullopt;
        hit.message = "op " + r.op + " at " + r.where();
        return hit;
    case Breakpoint::Kind::NameGlob:
        if (!globMatch(bp.pattern, r.fullName))
            return std::nullopt;
        hit.message = "name " + r.fullName + " matches '" + bp.pattern + "' at " + r.where();
        return hit;
    case Breakpoint::Kind::PhaseChange:
        if (r.phase != bp.phase || (previous && previous->phase == bp.phase))
            return std::nullopt;
        hit.message = std::string("phase ") + phaseName(bp.phase) + " begins"
                      + (previous ? std::string(" (after ") + phaseName(previous->phase) + ")" : "")
                      + " at " + r.where();
        return hit;
    case Breakpoint::Kind::TensorPredicate: break;
    }
    return matchTensor(bp, r);
}

[[noreturn]] void bad(std::string_view text, const std::string& why)
{
    throw ValueError("breakpoint '" + std::string(text) + "': " + why);
}

int parseLine(std::string_view text, std::string_view digits)
{
    const std::optional<double> v = parseNumber(digits);
    if (!v || *v < 1 || *v != std::floor(*v) || *v > 1e9
        || digits.find_first_not_of("0123456789") != std::string_view::npos)
        bad(text, "line '" + std::string(digits) + "' is not a positive whole number");
    return static_cast<int>(*v);
}

Breakpoint parseKeyword(std::string_view text, std::string_view key, std::string_view value)
{
    Breakpoint bp;
    if (value.empty())
        bad(text, "nothing after '" + std::string(key) + ":'");
    if (key == "op") {
        bp.kind = Breakpoint::Kind::OpType;
        bp.pattern = std::string(value);
    } else if (key == "name") {
        bp.kind = Breakpoint::Kind::NameGlob;
        bp.pattern = std::string(value);
    } else if (key == "phase") {
        bp.kind = Breakpoint::Kind::PhaseChange;
        if (value == "forward")
            bp.phase = Phase::Forward;
        else if (value == "backward")
            bp.phase = Phase::Backward;
        else if (value == "update")
            bp.phase = Phase::Update;
        else
            bad(text, "unknown phase '" + std::string(value) + "', expected forward, backward or update");
    } else {
        bp.kind = Breakpoint::Kind::TensorPredicate;
        try {
            bp.condition = parseStatCondition(value);
        } catch (const ValueError& e) {
            bad(text, e.what());
        }
    }
    return bp;
}

} // namespace

bool globMatch(std::string_view pattern, std::string_view text)
{
    std::size_t p = 0, t = 0;
    std::size_t starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starP = ++p;
            starT = t;
            continue;
        }
        if (p < pattern.size()) {
            std::size_t next = p;
            bool ok = false;
            if (pattern[p] == '[') {
                const std::optional<bool> set = matchSet(pattern, next, text[t]);
                ok = set ? *set : text[t] == '[';
                next = set ? next : p + 1;
            } else if (pattern[p] == '\\' && p + 1 < pattern.size()) {
                ok = pattern[p + 1] == text[t];
                next = p + 2;
            } else {
                ok = pattern[p] == '?' || pattern[p] == text[t];
                next = p + 1;
            }
            if (ok) {
                p = next;
                ++t;
                continue;
            }
        }
        if (starP == std::string_view::npos)
            return false;
        p = starP;
        t = ++starT;
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

bool Breakpoint::inFile(const std::string& path) const
{
    return file.empty() || endsWithPath(path, file);
}

std::string Breakpoint::toString() const
{
    switch (kind) {
    case Kind::SourceLine: return file.empty() ? std::to_string(line) : file + ":" + std::to_string(line);
    case Kind::OpType: return "op:" + pattern;
    case Kind::NameGlob: return "name:" + pattern;
    case Kind::PhaseChange: return std::string("phase:") + phaseName(phase);
    case Kind::TensorPredicate: break;
    }
    return "tensor:" + condition.toString();
}

std::optional<Hit> matchBreakpoint(const Breakpoint& bp, const NodeRecord& record, const NodeRecord* previous)
{
    std::optional<Hit> hit = matchKind(bp, record, previous);
    if (hit) {
        hit->breakpointId = bp.id;
        hit->recordSeq = record.seq;
    }
    return hit;
}

Breakpoint parseBreakpoint(std::string_view text)
{
    if (text.empty())
        bad(text, "empty, expected LINE, FILE:LINE, op:TYPE, name:GLOB, phase:PHASE or tensor:STAT>NUMBER");
    const std::size_t colon = text.find(':');
    if (colon != std::string_view::npos) {
        const std::string_view key = text.substr(0, colon);
        if (key == "op" || key == "name" || key == "phase" || key == "tensor")
            return parseKeyword(text, key, text.substr(colon + 1));
    }
    Breakpoint bp;
    bp.kind = Breakpoint::Kind::SourceLine;
    const std::size_t last = text.rfind(':');
    if (last == std::string_view::npos) {
        if (text.find_first_not_of("0123456789") != std::string_view::npos)
            bad(text, "expected LINE, FILE:LINE, op:TYPE, name:GLOB, phase:PHASE or tensor:STAT>NUMBER");
        bp.line = parseLine(text, text);
        return bp;
    }
    if (last == 0)
        bad(text, "no file before ':', expected FILE:LINE");
    const std::string_view key = text.substr(0, colon);
    const std::string_view after = text.substr(last + 1);
    if (key.find_first_of("./\\") == std::string_view::npos
        && after.find_first_not_of("0123456789") != std::string_view::npos)
        bad(text, "unknown kind '" + std::string(key)
                      + ":', expected op:, name:, phase:, tensor: or FILE:LINE");
    bp.file = std::string(text.substr(0, last));
    bp.line = parseLine(text, text.substr(last + 1));
    return bp;
}

int BreakpointSet::add(Breakpoint bp)
{
    bp.id = m_nextId++;
    m_breakpoints.push_back(std::move(bp));
    return m_breakpoints.back().id;
}

bool BreakpointSet::remove(int id)
{
    return std::erase_if(m_breakpoints, [id](const Breakpoint& bp) { return bp.id == id; }) > 0;
}

bool BreakpointSet::setEnabled(int id, bool enabled)
{
    for (Breakpoint& bp : m_breakpoints)
        if (bp.id == id) {
            bp.enabled = enabled;
            return true;
        }
    return false;
}

const Breakpoint* BreakpointSet::find(int id) const
{
    for (const Breakpoint& bp : m_breakpoints)
        if (bp.id == id)
            return &bp;
    return nullptr;
}

std::optional<Hit> BreakpointSet::match(const NodeRecord& record, const NodeRecord* previous, int skipId)
{
    for (Breakpoint& bp : m_breakpoints) {
        if (!bp.enabled || bp.id == skipId)
            continue;
        if (std::optional<Hit> hit = matchBreakpoint(bp, record, previous)) {
            ++bp.hitCount;
            return hit;
        }
    }
    return std::nullopt;
}

std::optional<Hit> BreakpointSet::matchLine(const std::string& file, int line)
{
    for (Breakpoint& bp : m_breakpoints) {
        if (!bp.enabled || bp.kind != Breakpoint::Kind::SourceLine || bp.line != line
            || !bp.inFile(file))
            continue;
        ++bp.hitCount;
        Hit hit;
        hit.breakpointId = bp.id;
        hit.message = "line " + file.substr(file.rfind('/') + 1) + ":" + std::to_string(line)
                      + " reached, before it runs";
        return hit;
    }
    return std::nullopt;
}

void BreakpointSet::resetHits()
{
    for (Breakpoint& bp : m_breakpoints)
        bp.hitCount = 0;
}

bool BreakpointSet::anyLine() const
{
    for (const Breakpoint& bp : m_breakpoints)
        if (bp.enabled && bp.kind == Breakpoint::Kind::SourceLine)
            return true;
    return false;
}

} // namespace gradstep::debug
