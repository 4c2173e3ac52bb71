// Pausing inside an op: the worker waits without the GIL, so another thread reads the user's frames
// and variables meanwhile, and a stop still ends the script once it resumes.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "autodiff/observer.h"
#include "python/host/host.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <condition_variable>
#include <mutex>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

/// Pauses the script at its first op until resume() is called.
struct PausingObserver : ExecutionObserver {
    std::mutex mutex;
    std::condition_variable changed;
    bool paused = false;
    bool resumed = false;
    int ops = 0;

    void nodeStarted(const NodeEvent&) override
    {
        if (ops++ > 0)
            return;
        GilRelease release;
        std::unique_lock lock(mutex);
        paused = true;
        changed.notify_all();
        changed.wait(lock, [&] { return resumed; });
    }
    void nodeFinished(const NodeEvent&) override {}

    void waitUntilPaused()
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return paused; });
    }
    void resume()
    {
        std::lock_guard lock(mutex);
        resumed = true;
        changed.notify_all();
    }
};

const char* kScript = "from mindspore import Tensor\n"
                      "def step(w, lr):\n"
                      "    marker = 'inside step'\n"
                      "    return w - lr\n"
                      "w = Tensor([1.0, 2.0])\n"
                      "result = step(w, 0.5)\n"
                      "print(result)\n";

const Variable* find(const std::vector<Variable>& variables, const std::string& name)
{
    auto it = std::find_if(variables.begin(), variables.end(), [&](const Variable& v) { return v.name == name; });
    return it == variables.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("while the script is paused inside an op, another thread reads its frames and variables")
{
    ensureHost();
    TempDir dir;
    PausingObserver observer;
    std::string out;
    RunRequest request;
    request.script = dir.write("main.py", kScript);
    request.observer = &observer;
    request.output = [&](OutputStream, std::string_view text) { out += text; };
    ScriptRunner runner;
    runner.start(std::move(request));
    observer.waitUntilPaused();

    const std::vector<StackFrame> stack = runner.userStack();
    REQUIRE(stack.size() == 2);
    CHECK(stack[0].frame.function == "<module>");
    CHECK(stack[0].frame.span.line == 6);
    CHECK(stack[1].frame.function == "step");
    CHECK(stack[1].frame.span.line == 4);
    CHECK(stack[1].frame.span.column == 12);
    const Variable* marker = find(stack[1].locals, "marker");
    REQUIRE(marker);
    CHECK(marker->type == "str");
    CHECK(marker->value == "'inside step'");
    const Variable* w = find(stack[0].locals, "w");
    REQUIRE(w);
    CHECK(w->type == "Tensor");
    CHECK(w->value.rfind("Tensor(shape=[2], dtype=Float32", 0) == 0);
    CHECK_FALSE(find(stack[0].locals, "Tensor")); // classes, functions and modules are left out
    CHECK_FALSE(find(stack[0].locals, "step"));

    observer.resume();
    const RunResult result = runner.wait();
    CHECK(result.status == RunStatus::Ok);
    CHECK(out == "[0.5 1.5]\n");
    CHECK(runner.userStack().empty());
}

TEST_CASE("a stop while paused ends the script once the op returns")
{
    ensureHost();
    TempDir dir;
    PausingObserver observer;
    RunRequest request;
    request.script = dir.write("main.py", std::string(kScript) + "while True:\n    pass\n");
    request.observer = &observer;
    ScriptRunner runner;
    runner.start(std::move(request));
    observer.waitUntilPaused();
    runner.stop();
    observer.resume();
    CHECK(runner.wait().status == RunStatus::Stopped);
}
