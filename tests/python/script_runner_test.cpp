// Running scripts: the interpreter we embed, __main__, sys.argv, helper modules beside the script,
// captured output, stop and timeout, exit codes. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "python/host/host.h"
#include "tensor/errors.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace gradstep::python;
using namespace gradstep::python::test;
using namespace std::chrono_literals;

TEST_CASE("an empty script runs and does nothing")
{
    const Outcome o = runSource("");
    CHECK(o.ok());
    CHECK(o.out.empty());
    CHECK(o.err.empty());
    CHECK_FALSE(o.result.diagnostic);
}

TEST_CASE("a script runs as __main__ with its own path as the first of sys.argv and as __file__")
{
    TempDir dir;
    const auto script = dir.write("prog.py", "import sys\n"
                                             "print(__name__)\n"
                                             "print(sys.argv[0] == __file__, sys.argv[1:])\n"
                                             "print(sys.path[0] == __import__('os').path.dirname(__file__))\n");
    ensureHost();
    std::string out;
    RunRequest request;
    request.script = script;
    request.args = {"--lr", "0.1"};
    request.output = [&](OutputStream, std::string_view text) { out += text; };
    ScriptRunner runner;
    const RunResult result = runner.run(std::move(request));
    REQUIRE(result.status == RunStatus::Ok);
    CHECK(out == "__main__\nTrue ['--lr', '0.1']\nTrue\n");
}

TEST_CASE("the interpreter is Debian's Python 3.11 with its numpy")
{
    const Outcome o = runSource("import sys, numpy\n"
                                "print(sys.executable, sys.version_info[:2], numpy.__file__.startswith('/usr/'))\n");
    INFO(o.diagnostic());
    REQUIRE(o.ok());
    CHECK(o.out == std::string(GRADSTEP_TEST_PYTHON) + " (3, 11) True\n");
}

TEST_CASE("stdout and stderr reach the callback separately, print(file=...) and warnings included")
{
    const Outcome o = runSource("import sys, warnings\n"
                                "print('to out')\n"
                                "print('to err', file=sys.stderr)\n"
                                "sys.stdout.write('no newline')\n"
                                "warnings.warn('careful')\n");
    INFO(o.diagnostic());
    REQUIRE(o.ok());
    CHECK(o.out == "to out\nno newline");
    CHECK(o.err.find("to err\n") == 0);
    CHECK(o.err.find("UserWarning: careful") != std::string::npos);
}

TEST_CASE("a helper module beside the script imports, and an edited helper reloads on the next run")
{
    TempDir dir;
    dir.write("helper.py", "VALUE = 1\n");
    const auto script = dir.write("main.py", "import helper\nprint(helper.VALUE)\n");
    Outcome first = runFile(script);
    INFO(first.diagnostic());
    REQUIRE(first.ok());
    CHECK(first.out == "1\n");
    dir.write("helper.py", "VALUE = 2\n");
    const Outcome second = runFile(script);
    REQUIRE(second.ok());
    CHECK(second.out == "2\n");
}

TEST_CASE("our mindspore shadows a mindspore package found on sys.path")
{
    TempDir dir;
    dir.write("mindspore/__init__.py", "raise ImportError('the installed mindspore was imported')\n");
    const auto script = dir.write("main.py", "import mindspore as ms\n"
                                             "from mindspore import Tensor, ops, nn\n"
                                             "import mindspore.ops as ops2\n"
                                             "import mindspore.common.dtype as mstype\n"
                                             "from mindspore import context\n"
                                             "print(ops is ops2, mstype.float32 is ms.float32, ms.__version__)\n");
    const Outcome o = runFile(script);
    INFO(o.diagnostic());
    REQUIRE(o.ok());
    CHECK(o.out == "True True 2.2.14\n");
}

TEST_CASE("a script that replaces mindspore in sys.modules does not affect the next run")
{
    Outcome o = runSource("import sys\nsys.modules['mindspore'] = 42\n");
    REQUIRE(o.ok());
    o = runSource("import mindspore\nprint(mindspore.Tensor.__name__)\n");
    INFO(o.diagnostic());
    REQUIRE(o.ok());
    CHECK(o.out == "Tensor\n");
}

TEST_CASE("sys.exit(0) is success, sys.exit with another code is an error at the call")
{
    CHECK(runSource("import sys\nsys.exit(0)\nprint('not reached')\n").ok());
    CHECK(runSource("import sys\nsys.exit()\n").ok());
    const Outcome o = runSource("import sys\n\nsys.exit(3)\n");
    REQUIRE(o.result.status == RunStatus::Error);
    CHECK(o.result.diagnostic->headline().ends_with("main.py:3:1: error: SystemExit: exit status 3"));
}

TEST_CASE("a timeout interrupts an infinite Python loop and says where it was")
{
    const Outcome o = runSource("x = 0\nwhile True:\n    x += 1\n", 300ms);
    REQUIRE(o.result.status == RunStatus::TimedOut);
    REQUIRE(o.result.diagnostic);
    CHECK(o.result.diagnostic->span.line >= 2);
    CHECK(o.result.diagnostic->headline().find("error: timed out after 0.3 s") != std::string::npos);
    CHECK(o.result.seconds < 5.0);
}

TEST_CASE("stop interrupts a running script even when it swallows the exception with a bare except")
{
    ensureHost();
    TempDir dir;
    const auto script = dir.write("main.py", "try:\n"
                                             "    while True:\n"
                                             "        pass\n"
                                             "except:\n"
                                             "    pass\n"
                                             "while True:\n"
                                             "    pass\n");
    ScriptRunner runner;
    RunRequest request;
    request.script = script;
    runner.start(std::move(request));
    CHECK_FALSE(runner.waitFor(200ms));
    const auto stopAt = std::chrono::steady_clock::now();
    runner.stop();
    const RunResult result = runner.wait();
    CHECK(result.status == RunStatus::Stopped);
    CHECK(std::chrono::steady_clock::now() - stopAt < 5s);
}

TEST_CASE("stop and wait on an idle runner return at once, and a runner runs again after a stop")
{
    ensureHost();
    ScriptRunner runner;
    runner.stop();
    CHECK(runner.finished());
    TempDir dir;
    RunRequest loop;
    loop.script = dir.write("loop.py", "while True: pass\n");
    runner.start(loop);
    runner.stop();
    CHECK(runner.wait().status == RunStatus::Stopped);
    RunRequest quick;
    quick.script = dir.write("quick.py", "x = 1\n");
    CHECK(runner.run(quick).status == RunStatus::Ok);
}

TEST_CASE("starting a second run while one is active is refused")
{
    ensureHost();
    TempDir dir;
    ScriptRunner runner;
    RunRequest loop;
    loop.script = dir.write("loop.py", "while True: pass\n");
    runner.start(loop);
    CHECK_THROWS_AS(runner.start(loop), gradstep::RuntimeError);
    runner.stop();
    CHECK(runner.wait().status == RunStatus::Stopped);
}

TEST_CASE("a missing script is an error naming the file")
{
    const Outcome o = runFile("/nonexistent/dir/script.py");
    REQUIRE(o.result.status == RunStatus::Error);
    CHECK(o.result.diagnostic->headline()
          == "/nonexistent/dir/script.py: error: OSError: cannot read the script: No such file or directory");
}

TEST_CASE("a thread the script leaves running cannot write to a finished run's callback")
{
    const Outcome o = runSource("import sys, threading, time\n"
                                "out = sys.stdout\n"
                                "def late():\n"
                                "    time.sleep(0.2)\n"
                                "    out.write('late')\n"
                                "threading.Thread(target=late, daemon=True).start()\n");
    REQUIRE(o.ok());
    std::this_thread::sleep_for(400ms);
    CHECK(o.out.empty());
}

// Python 3.11 keeps a Thread object for each thread it did not start, holding the sys.stderr of
// its creation; the run's streams (and the C++ callbacks behind them) outlived every run (found by
// LeakSanitizer in the window tests).
TEST_CASE("a run's output streams are freed when the run ends, threads or not")
{
    const Outcome first = runSource("import builtins, sys, threading, weakref\n"
                                    "t = threading.Thread(target=print, args=('in a thread',))\n"
                                    "t.start(); t.join()\n"
                                    "builtins._gradstep_test_streams = [weakref.ref(sys.stdout), weakref.ref(sys.stderr)]\n");
    REQUIRE(first.ok());
    const Outcome second = runSource("import builtins, gc\n"
                                     "gc.collect()\n"
                                     "print([r() is None for r in builtins._gradstep_test_streams])\n"
                                     "del builtins._gradstep_test_streams\n");
    REQUIRE(second.ok());
    CHECK(second.out == "[True, True]\n");
}
