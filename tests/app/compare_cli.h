// What the `gradstep compare` tests share: the command with stderr folded into stdout, and
// quoted sample and scratch paths. SPDX-License-Identifier: MIT
#pragma once

#include "tests/app/cli_support.h"

namespace gradstep::test {

/// `gradstep compare ARGS`, with stderr appended to stdout for the checks.
inline CommandResult compareCli(const std::string& args)
{
    CommandResult r = runGradstep("compare " + args);
    r.out += r.err;
    return r;
}

/// A sample script, quoted for the shell ("samples/NAME", relative to the source tree).
inline std::string sample(const std::string& name) { return shellQuote("samples/" + name); }

inline std::string quoted(const std::filesystem::path& path) { return shellQuote(path.string()); }

} // namespace gradstep::test
