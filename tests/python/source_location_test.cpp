// Source mapping: while a script runs, each op knows the (file, line, column) of the innermost
// frame in the user's files, through the worker thread's location provider.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "ops/op_def.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

struct Seen {
    std::string op;
    std::string file;
    int line;
    int column;
};

/// Asks the provider where each op was called from, as the tape does when it records a node.
struct LocatingObserver : ExecutionObserver {
    std::vector<Seen> seen;
    void nodeStarted(const NodeEvent& e) override
    {
        const auto& provider = executionContext().locationProvider;
        const SourceLocation where = provider ? provider() : SourceLocation();
        seen.push_back({e.op ? std::string(e.op->name) : "?", where.file ? *where.file : "", where.line, where.column});
    }
    void nodeFinished(const NodeEvent&) override {}
};

std::vector<Seen> locate(const TempDir& dir, const std::filesystem::path& script)
{
    ensureHost();
    LocatingObserver observer;
    RunRequest request;
    request.script = script;
    request.observer = &observer;
    ScriptRunner runner;
    const RunResult result = runner.run(std::move(request));
    INFO((result.diagnostic ? result.diagnostic->format() : std::string()));
    REQUIRE(result.status == RunStatus::Ok);
    (void)dir;
    return observer.seen;
}

} // namespace

TEST_CASE("an op called from the script is located at its expression, column counted in characters")
{
    TempDir dir;
    const auto script = dir.write("main.py", "from mindspore import Tensor\n"
                                             "x = Tensor([1.0, 2.0])\n"
                                             "label = 'é'; y = x * 2.0\n");
    const auto seen = locate(dir, script);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].op == "Mul");
    CHECK(seen[0].file == std::filesystem::absolute(script).lexically_normal().string());
    CHECK(seen[0].line == 3);
    CHECK(seen[0].column == 18);
}

TEST_CASE("an op inside a helper module is located there, one inside a library at the user's call")
{
    TempDir dir;
    TempDir library;
    library.write("lib.py", "def double(x):\n"
                            "    return x * 2.0\n");
    dir.write("model.py", "def forward(x):\n"
                          "    return x + 1.0\n");
    const auto script = dir.write("main.py", "import sys\n"
                                             "sys.path.append(" + std::string("'") + library.path().string() + "')\n"
                                             "from mindspore import Tensor\n"
                                             "import model, lib\n"
                                             "x = Tensor([1.0])\n"
                                             "model.forward(x)\n"
                                             "y = lib.double(x)\n");
    const auto seen = locate(dir, script);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].op == "Add");
    CHECK(seen[0].file.ends_with("/model.py"));
    CHECK(seen[0].line == 2);
    CHECK(seen[0].column == 12);
    CHECK(seen[1].op == "Mul");
    CHECK(seen[1].file.ends_with("/main.py"));
    CHECK(seen[1].line == 7);
    CHECK(seen[1].column == 5);
}

TEST_CASE("the same line run many times keeps its location")
{
    TempDir dir;
    const auto script = dir.write("main.py", "from mindspore import Tensor\n"
                                             "x = Tensor([1.0])\n"
                                             "for i in range(100):\n"
                                             "    x = x - 0.01\n");
    const auto seen = locate(dir, script);
    REQUIRE(seen.size() == 100);
    for (const auto& s : seen) {
        CHECK(s.line == 4);
        CHECK(s.column == 9);
    }
}
