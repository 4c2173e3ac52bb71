// `gradstep debug` run as a process: the --json report parsed and checked, the text report,
// usage errors (exit 2) and script errors (exit 1). SPDX-License-Identifier: MIT
#include "io/json.h"
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

using namespace gradstep;
using namespace gradstep::debug::test;

namespace {

struct Process {
    int status = -1;
    std::string out;
    std::string err;
};

std::string quoted(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

Process runGradstep(const python::test::TempDir& dir, const std::vector<std::string>& args)
{
    const std::filesystem::path errFile = dir.path() / "stderr.txt";
    std::string command = quoted(GRADSTEP_BINARY) + " debug";
    for (const std::string& a : args)
        command += " " + quoted(a);
    command += " 2>" + quoted(errFile.string());
    Process p;
    std::FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        p.out.append(buffer, n);
    const int raw = pclose(pipe);
    p.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(errFile);
    std::stringstream text;
    text << in.rdbuf();
    p.err = text.str();
    return p;
}

const char* const kLogZero = "import numpy as np\n"
                             "import mindspore as ms\n"
                             "from mindspore import Tensor, Parameter, ops\n"
                             "w = Parameter(Tensor(np.array([1.0, 0.0, 2.0], np.float32)), name='w')\n"
                             "def f(x):\n"
                             "    y = x * w\n"
                             "    z = ops.log(y)\n"                                    // 7
                             "    return (z * 0.5).sum()\n"
                             "x = Tensor(np.array([1.0, 1.0, 1.0], np.float32))\n"
                             "print('running')\n"
                             "loss, g = ms.value_and_grad(f, None, [w])(x)\n";

} // namespace

TEST_CASE("gradstep debug --watch nan --json names the root-cause node, its line and its values")
{
    python::test::TempDir dir;
    const auto script = dir.write("main.py", kLogZero);
    const Process p = runGradstep(dir, {script.string(), "--watch", "nan", "--json"});
    INFO(p.err);
    REQUIRE(p.status == 0);
    const Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "nan");
    CHECK(j["condition"].asString() == "nan");
    CHECK(j["step"].asInt() == 1);
    CHECK(j["node"]["op"].asString() == "Log");
    CHECK(j["node"]["phase"].asString() == "forward");
    CHECK(j["node"].contains("scope"));
    CHECK(j["location"]["line"].asInt() == 7);
    CHECK(j["location"]["col"].asInt() > 0);
    CHECK(j["location"]["file"].asString().find("main.py") != std::string::npos);
    CHECK(j["location"]["source"].asString() == "    z = ops.log(y)");
    CHECK(j["outputs"][0]["inf_count"].asInt() == 1);
    CHECK(j["inputs"][0]["inf_count"].asInt() == 0);
    CHECK(j["nan_root_cause"]["kind"].asString() == "produced_by_node");
    CHECK(p.err.find("running") != std::string::npos); // the script's prints go to stderr with --json
}

TEST_CASE("gradstep debug --break op:TYPE prints the node, the source line with a caret and the values")
{
    python::test::TempDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    Process p = runGradstep(dir, {script.string(), "--break", "op:MatMul", "--quiet"});
    INFO(p.err);
    REQUIRE(p.status == 0);
    CHECK(p.out.find("stopped: breakpoint (op:MatMul) in step 1") != std::string::npos);
    CHECK(p.out.find("main.py:12:") != std::string::npos);
    CHECK(p.out.find("12 |     out = net(data)") != std::string::npos);
    CHECK(p.out.find("^") != std::string::npos);
    CHECK(p.out.find("output 0") != std::string::npos);

    p = runGradstep(dir, {script.string(), "--break", "main.py:18", "--json", "--quiet"});
    REQUIRE(p.status == 0);
    const Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "breakpoint");
    CHECK(j["condition"].asString() == "main.py:18");
    CHECK(j["node"]["phase"].asString() == "update");
    CHECK(j["location"]["line"].asInt() == 18);
}

TEST_CASE("gradstep debug reports the end when nothing is hit, also after --steps N")
{
    python::test::TempDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    Process p = runGradstep(dir, {script.string(), "--watch", "nan", "--json", "--quiet"});
    REQUIRE(p.status == 0);
    Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "end");
    CHECK(j["steps_finished"].asInt() == 3);
    CHECK(j["node"].isNull());

    p = runGradstep(dir, {script.string(), "--steps", "2", "--json", "--quiet", "--seed", "3"});
    REQUIRE(p.status == 0);
    j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "end");
    CHECK(j["condition"].asString() == "steps=2");
    CHECK(j["steps_finished"].asInt() == 2);
}

TEST_CASE("gradstep debug exits 2 on bad options and 1 on a script error")
{
    python::test::TempDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{script.string(), "--break", "op:"},
                                               {script.string(), "--watch", "sometimes"},
                                               {script.string(), "--steps", "zero"},
                                               {script.string(), "--api", "3.0"},
                                               {script.string(), "--frobnicate"},
                                               {}}) {
        const Process p = runGradstep(dir, args);
        CHECK(p.status == 2);
        CHECK(p.err.find("gradstep debug") != std::string::npos);
    }
    const auto bad = dir.write("bad.py", "import mindspore\nx = 1\nundefined_name + x\n");
    const Process p = runGradstep(dir, {bad.string()});
    CHECK(p.status == 1);
    CHECK(p.err.find("NameError") != std::string::npos);
    CHECK(p.err.find("bad.py:3:") != std::string::npos);
}
