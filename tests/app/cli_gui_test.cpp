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

TEST_CASE("gui --migrate refuses a PyTorch script it cannot read")
{
    const CommandResult r = runGui(shellQuote(sourcePath("samples/migration/mindspore_cnn.py").string())
                                   + " --migrate no_such_torch_script.py --screenshot x.png");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--migrate: cannot read the script 'no_such_torch_script.py'"));
}

TEST_CASE("gui --map refuses a map that is not a JSON object of names")
{
    ScratchDir dir;
    const auto map = dir.write("map.json", "[\"conv1\"]");
    const CommandResult r = runGui(shellQuote(sourcePath("samples/migration/mindspore_cnn.py").string())
                                   + " --migrate " + shellQuote(sourcePath("samples/migration/torch_cnn.py").string())
                                   + " --map " + shellQuote(map.string()) + " --screenshot x.png");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--map: ") && Catch::Contains("must be a JSON object"));
}

TEST_CASE("gui --migrate without torch saves the Migration view with the package to install")
{
    ScratchDir dir;
    const auto shot = dir.file("migration.png");
    // A python3 that cannot import torch: Debian's without its site directories.
    const auto python = dir.write("python3-without-torch", "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n");
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    ::setenv("GRADSTEP_MIGRATE_PYTHON", python.c_str(), 1);
    const CommandResult r = runGui(shellQuote(sourcePath("samples/migration/mindspore_cnn.py").string())
                                   + " --migrate " + shellQuote(sourcePath("samples/migration/torch_cnn.py").string())
                                   + " --screenshot " + shellQuote(shot.string()));
    ::unsetenv("GRADSTEP_MIGRATE_PYTHON");
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK_THAT(r.err, Catch::Contains("migrate: PyTorch is not installed for")
                          && Catch::Contains("install Debian's python3-torch"));
    CHECK(readFile(shot).substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
}

#ifdef GRADSTEP_HAVE_TORCH
TEST_CASE("gui --migrate saves the Migration view once the comparison with PyTorch finished")
{
    ScratchDir dir;
    const auto shot = dir.file("migration.png");
    const CommandResult r = runGui(shellQuote(sourcePath("samples/migration/mindspore_cnn_leaky_relu.py").string())
                                   + " --migrate " + shellQuote(sourcePath("samples/migration/torch_cnn.py").string())
                                   + " --screenshot " + shellQuote(shot.string()));
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.err, !Catch::Contains("migrate:"));
    const std::string png = readFile(shot);
    REQUIRE(png.size() > 20000);
    CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
}
#endif
