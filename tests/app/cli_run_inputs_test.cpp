// `gradstep run` given something other than a script file: a directory (python3 runs its
// __main__.py), a FIFO nobody writes to, a device that never ends. Each gets an answer at once.
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

using namespace gradstep::test;

TEST_CASE("run DIR runs DIR/__main__.py as python3 does, and says so when there is none")
{
    ScratchDir dir;
    std::filesystem::create_directory(dir.file("pkg"));
    dir.write("pkg/__main__.py", "print('main of the package ran')\n");
    const CommandResult ran = runGradstep("run " + shellQuote(dir.file("pkg").string()));
    INFO(ran.err);
    CHECK(ran.status == 0);
    CHECK(ran.out.find("main of the package ran") != std::string::npos);

    std::filesystem::create_directory(dir.file("empty"));
    const CommandResult none = runGradstep("run " + shellQuote(dir.file("empty").string()));
    CHECK(none.status == 1);
    CHECK(none.err.find("can't find '__main__' module in") != std::string::npos);
}

TEST_CASE("run refuses a FIFO and a device at once instead of blocking or reading forever")
{
    ScratchDir dir;
    const auto fifo = dir.file("script.py");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const CommandResult fromFifo = runGradstep("run " + shellQuote(fifo.string()));
    CHECK(fromFifo.status == 1);
    CHECK(fromFifo.err.find("not a regular file") != std::string::npos);

    const CommandResult fromZero = runGradstep("run /dev/zero");
    CHECK(fromZero.status == 1);
    CHECK(fromZero.err.find("not a regular file") != std::string::npos);
}
