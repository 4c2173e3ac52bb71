// Source locations for recorded nodes: (file, line, column) of the innermost Python frame that
// belongs to the user's files. Created, used and destroyed on the script's worker thread with the
// GIL held. Positions are computed once per (code object, instruction) and cached, so a training
// loop pays for a frame walk and a hash lookup per op. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "python/host/user_files.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

struct PyCodeObject;

namespace gradstep::python {

class SourceLocator {
public:
    explicit SourceLocator(UserFiles files);
    ~SourceLocator();
    SourceLocator(const SourceLocator&) = delete;
    SourceLocator& operator=(const SourceLocator&) = delete;

    /// The innermost user frame's position, or an unknown location when no user frame runs
    /// (or this thread does not hold the GIL).
    SourceLocation current();

    struct CodeInfo {
        bool user = false;
        std::shared_ptr<const std::string> file;
    };
    /// Whether a code object is the user's, and its file; cached per code object.
    const CodeInfo& codeInfo(PyCodeObject* code);

private:
    struct Position {
        int line = 0;
        int column = 0;
    };
    struct KeyHash {
        std::size_t operator()(const std::pair<PyCodeObject*, int>& key) const
        {
            return std::hash<const void*>()(key.first) ^ (static_cast<std::size_t>(key.second) * 0x9E3779B97F4A7C15ull);
        }
    };

    Position position(PyCodeObject* code, int lasti);

    UserFiles m_files;
    /// Holds a reference to each code object so its address cannot be reused while cached.
    std::unordered_map<PyCodeObject*, CodeInfo> m_codes;
    std::unordered_map<std::pair<PyCodeObject*, int>, Position, KeyHash> m_positions;
};

} // namespace gradstep::python
