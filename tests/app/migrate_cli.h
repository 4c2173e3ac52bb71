// What the `gradstep migrate` tests share: a pair of samples/migration run with --report, and the
// checks of its first divergence. SPDX-License-Identifier: MIT
#pragma once

#include "tests/app/cli_support.h"

#include "io/json.h"

#include <catch2/catch.hpp>

namespace gradstep::test {

/// A migration sample, quoted for the shell ("samples/migration/NAME").
inline std::string migrationSample(const std::string& name) { return shellQuote("samples/migration/" + name); }

/// Runs the pair with --report and returns the report; the run must exit 0.
inline Json migrate(const std::string& torch, const std::string& port, const std::string& extra = "")
{
    ScratchDir dir;
    const auto report = dir.file("report.json");
    const CommandResult r = runGradstep("migrate " + migrationSample(torch) + " " + migrationSample(port)
                                        + " --report " + shellQuote(report.string()) + " " + extra);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    return Json::parseFile(report.string());
}

inline void requireDivergence(const Json& report, const std::string& torch, const std::string& ms,
                              const std::string& kind)
{
    INFO(report.dump(2));
    REQUIRE(report["verdict"].asString() == "diverges");
    CHECK(report["first_divergence"]["torch"].asString() == torch);
    CHECK(report["first_divergence"]["mindspore"].asString() == ms);
    CHECK(report["first_divergence"]["kind"].asString() == kind);
}

inline std::string explanation(const Json& report) { return report["first_divergence"]["explanation"].asString(); }

} // namespace gradstep::test
