// `gradstep gui --screenshot` as a user runs it, offscreen: the compare view's screenshot waits
// for the comparison, and the new options refuse bad values. SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>

using namespace gradstep::test;

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

CommandResult runGui(const std::string& args)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    return runGradstep("gui " + args);
}

} // namespace

TEST_CASE("gui --view compare saves the window once the comparison finished")
{
    ScratchDir dir;
    const auto shot = dir.file("compare.png");
    const CommandResult r = runGui(shellQuote(sourcePath("samples/has_aux_pitfall.py").string())
                                   + " --screenshot " + shellQuote(shot.string()) + " --view compare");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string png = readFile(shot);
    REQUIRE(png.size() > 20000);
    CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_CASE("gui --view compare --compare api reports the side that failed before its step")
{
    ScratchDir dir;
    const auto shot = dir.file("api.png");
    const CommandResult r = runGui(shellQuote(sourcePath("samples/has_aux_pitfall.py").string())
                                   + " --screenshot " + shellQuote(shot.string())
                                   + " --view compare --compare api --palette dark");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("compare: MindSpore 1.10 API: AttributeError") != std::string::npos);
    CHECK(r.err.find("value_and_grad") != std::string::npos);
    CHECK(std::filesystem::file_size(shot) > 20000);
}

TEST_CASE("gui refuses an unknown --compare setting or --palette")
{
    const CommandResult what = runGui("--compare colour");
    CHECK(what.status == 2);
    CHECK(what.err.find("--compare expects has-aux, mode, grad-api, api, fd, amp or ranks") != std::string::npos);
    const CommandResult palette = runGui("--palette sepia");
    CHECK(palette.status == 2);
    CHECK(palette.err.find("--palette expects dark or light") != std::string::npos);
}

TEST_CASE("gui refuses a --memory-cap that is not a whole number of MiB")
{
    for (const char* bad : {"lots", "-5", "1.5"}) {
        const CommandResult r = runGui(std::string("--memory-cap ") + bad);
        CHECK(r.status == 2);
        CHECK(r.err.find("--memory-cap needs a whole number of MiB, got '" + std::string(bad) + "'")
              != std::string::npos);
    }
}
