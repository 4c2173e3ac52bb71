// `gradstep --version` prints the one version number, project(VERSION) in CMakeLists.txt, which
// the .deb, the AppStream release and the man page carry too. SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

using namespace gradstep::test;

TEST_CASE("gradstep --version prints exactly the CMake project version")
{
    const CommandResult r = runGradstep("--version");
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == std::string("gradstep ") + GRADSTEP_PROJECT_VERSION + "\n");
    CHECK(r.err.empty());
}

TEST_CASE("gradstep --help documents --version and every command")
{
    const CommandResult r = runGradstep("--help");
    CHECK(r.status == 0);
    for (const char* word : {"--version", "--help", "demo", "gui", "run", "debug", "compare", "export", "ops"})
        CHECK(r.out.find(word) != std::string::npos);
}

TEST_CASE("gradstep demo finds the shipped digits from any working directory")
{
    // BUILD/share/gradstep/samples mirrors the installed PREFIX/share/gradstep/samples.
    ScratchDir elsewhere;
    const auto out = elsewhere.file("out");
    const std::string command = "cd " + shellQuote(elsewhere.file(".").string()) + " && " + shellQuote(GRADSTEP_BINARY)
                                + " demo --steps 1 --every 1 >" + shellQuote(out.string()) + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(text);
    CHECK(status == 0);
    CHECK(text.find("test accuracy:") != std::string::npos);
}
