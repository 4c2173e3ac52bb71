// `gradstep debug --ranks N --interactive`: the ranks stepped together from commands on stdin, with
// 2 and 4 ranks: the same node after every step, a tensor's values on each rank (its own shard),
// the all-reduced gradients against the ranks' own, and a rank that fails or is killed ending the
// whole session without a hang. SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gradstep::test;

namespace {

std::string stepScript() { return shellQuote(sourcePath("tests/dist/compare_step.py").string()); }

/// Runs the console with `commands` as its standard input.
CommandResult console(const std::string& script, int ranks, const std::string& commands, const std::string& extra = "")
{
    ScratchDir dir;
    const auto input = dir.write("commands.txt", commands);
    return runGradstep("debug " + script + " --ranks " + std::to_string(ranks) + " --interactive --quiet " + extra
                       + " <" + shellQuote(input.string()));
}

std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix)
{
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0)
            out.push_back(line);
    return out;
}

/// The numbers printed on the lines after "rank R NAME: ..." up to the next line that is not
/// indented.
std::vector<double> printedValues(const std::string& out, int rank, const std::string& name)
{
    const std::string head = "rank " + std::to_string(rank) + " " + name + ": ";
    const std::size_t at = out.find(head);
    if (at == std::string::npos)
        return {};
    std::istringstream in(out.substr(out.find('\n', at) + 1));
    std::vector<double> values;
    for (std::string line; std::getline(in, line) && line.rfind("  ", 0) == 0;) {
        std::istringstream numbers(line);
        for (double v; numbers >> v;)
            values.push_back(v);
    }
    return values;
}

/// The last column ("vs mean": the all-reduced gradient's distance to the ranks' mean) of the grads table.
std::vector<double> versusMean(const std::string& out)
{
    std::istringstream in(out.substr(out.find("parameter ")));
    std::string line;
    std::getline(in, line); // the header
    std::vector<double> values;
    while (std::getline(in, line) && line.rfind("The ", 0) != 0) {
        const std::string last = line.substr(line.find_last_of(' ') + 1);
        values.push_back(last == "-" ? NAN : std::stod(last));
    }
    return values;
}

const char* kShardScript = "import numpy as np\nfrom mindspore import ops, Tensor\n"
                           "from mindspore.communication import init, get_rank\ninit()\n"
                           "x = Tensor(np.arange(3).astype(np.float32) * 0.5 + get_rank())\n"
                           "y = ops.exp(x)\nz = ops.AllReduce()(y)\nprint(z)\n";

} // namespace

TEST_CASE("debug --ranks 2 --interactive: after every step both ranks are at the same, next node")
{
    const CommandResult r = console(stepScript(), 2, "step\nstep\nstep\nstep\nwhere\nquit\n");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const auto pauses = linesStartingWith(r.out, "[gradstep] ");
    REQUIRE(pauses.size() == 6); // the first pause, four steps, where
    for (std::size_t i = 0; i < 5; ++i)
        CHECK(pauses[i].find("all 2 ranks paused at the same node: node #" + std::to_string(i + 1) + " of step 1: ")
              != std::string::npos);
    CHECK(pauses[5] == pauses[4]);
    const auto ranks = linesStartingWith(r.out, "rank ");
    REQUIRE(ranks.size() == 2);
    CHECK(ranks[0].substr(7) == ranks[1].substr(7)); // "rank 0: " and "rank 1: " say the same node
    CHECK(ranks[0].find("compare_step.py:") != std::string::npos);
}

TEST_CASE("debug --ranks 4 --interactive: continue to a breakpoint, then steps, keep the 4 ranks together")
{
    const CommandResult r = console(stepScript(), 4, "step\ncontinue\nstep\nquit\n", "--break op:AllReduce");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const auto pauses = linesStartingWith(r.out, "[gradstep] ");
    REQUIRE(pauses.size() == 4);
    for (const std::string& p : pauses)
        CHECK(p.find("all 4 ranks paused at the same node: ") != std::string::npos);
    CHECK(pauses[0].find("(AllReduce, forward)") != std::string::npos);
    CHECK(pauses[2].find("(AllReduce, forward)") != std::string::npos);
    CHECK(pauses[2] != pauses[0]); // the second parameter's all-reduce
}

TEST_CASE("debug --ranks --interactive prints a tensor's values as each rank computed them on its own data")
{
    ScratchDir dir;
    const auto script = shellQuote(dir.write("shard.py", kShardScript).string());
    for (int ranks : {2, 4}) {
        const CommandResult r = console(script, ranks, "print output 0\nstep\nprint input 0 --rank 1\nquit\n");
        INFO(ranks << " ranks\n" << r.out << r.err);
        REQUIRE(r.status == 0);
        REQUIRE(r.out.find("paused at the same node: node #1 of step 1: Exp (Exp, forward)") != std::string::npos);
        REQUIRE(r.out.find("paused at the same node: node #2 of step 1: AllReduce (AllReduce, forward)") != std::string::npos);
        for (int rank = 0; rank < ranks; ++rank) {
            const std::vector<double> values = printedValues(r.out, rank, "output 0");
            REQUIRE(values.size() == 3);
            for (int i = 0; i < 3; ++i)
                CHECK(values[i] == Approx(std::exp(0.5 * i + rank)).epsilon(1e-6));
        }
        // The AllReduce's input on rank 1 is rank 1's Exp output, not the reduced sum.
        const std::vector<double> input = printedValues(r.out, 1, "input 0");
        REQUIRE(input.size() == 3);
        for (int i = 0; i < 3; ++i)
            CHECK(input[i] == Approx(std::exp(0.5 * i + 1)).epsilon(1e-6));
        CHECK(printedValues(r.out, 0, "input 0").empty()); // --rank 1 only
    }
}

TEST_CASE("debug --ranks --interactive grads: the all-reduced gradients are the mean of the ranks' own")
{
    for (int ranks : {2, 4}) {
        const CommandResult r = console(stepScript(), ranks, "grads\ncontinue\ngrads\nquit\n", "--break phase:update");
        INFO(ranks << " ranks\n" << r.out << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find("The all-reduced gradients are the mean of the ranks' own gradients") != std::string::npos);
        const std::vector<double> distances = versusMean(r.out);
        REQUIRE(distances.size() == 4); // two Dense layers' weights and biases
        for (double d : distances)
            CHECK(d <= 1e-6);
        // Each rank's own gradient norm differs from the others' (other shards).
        const std::string row = linesStartingWith(r.out, "0.weight").at(0);
        std::istringstream cells(row.substr(row.find(' ')));
        double first = 0, second = 0;
        cells >> first >> second;
        CHECK(first != second);
    }
}

TEST_CASE("debug --ranks 2 --interactive grads: gradients_mean off sums the ranks' gradients")
{
    const CommandResult r = console(stepScript(), 2, "grads\nquit\n", "--break phase:update -- sum");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("The all-reduced gradients are the sum of the ranks' own gradients, not their mean") != std::string::npos);
    for (double d : versusMean(r.out))
        CHECK(d > 0.1);
}

TEST_CASE("debug --ranks 2 --interactive: a rank that raises ends the session with its rank and diagnostic")
{
    ScratchDir dir;
    const auto script = dir.write("raise.py",
        "import numpy as np\nfrom mindspore import ops, Tensor\nfrom mindspore.communication import init, get_rank\n"
        "init()\nx = ops.exp(Tensor(np.ones(3, np.float32)))\n"
        "if get_rank() == 1:\n    raise ValueError('rank one refuses')\nprint(ops.AllReduce()(x))\n");
    const auto started = std::chrono::steady_clock::now();
    const CommandResult r = console(shellQuote(script.string()), 2, "continue\nwhere\nquit\n");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("gradstep debug: rank 1 failed; the other ranks were stopped") != std::string::npos);
    CHECK(r.err.find("[rank 1] " + script.string() + ":7:5: error: ValueError: rank one refuses") != std::string::npos);
    CHECK(seconds < 30.0);
}

TEST_CASE("debug --ranks 2 --interactive: killing a rank while the ranks run ends the other within seconds")
{
    ScratchDir dir;
    const auto script = dir.write("loop.py",
        "import os\nimport numpy as np\nfrom mindspore import ops, Tensor\n"
        "from mindspore.communication import init, get_rank\ninit()\n"
        "with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rank%d.pid' % get_rank()), 'w') as f:\n"
        "    f.write(str(os.getpid()))\n"
        "x = Tensor(np.ones(4, np.float32))\nfor i in range(1000000):\n    x = ops.AllReduce()(ops.sin(x))\n");
    const auto err = dir.file("stderr");
    const std::string command = "cd " + shellQuote(GRADSTEP_SOURCE_DIR) + " && " + shellQuote(GRADSTEP_BINARY) + " debug "
                                + shellQuote(script.string()) + " --ranks 2 --interactive --quiet >/dev/null 2>"
                                + shellQuote(err.string());
    std::FILE* in = ::popen(command.c_str(), "w");
    REQUIRE(in);
    const auto pidOf = [&](int rank) {
        pid_t pid = 0;
        std::ifstream(dir.file("rank" + std::to_string(rank) + ".pid")) >> pid;
        return pid;
    };
    for (int i = 0; i < 600 && (pidOf(0) == 0 || pidOf(1) == 0); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const pid_t zero = pidOf(0), one = pidOf(1);
    REQUIRE(zero > 0);
    REQUIRE(one > 0);
    std::fputs("continue\n", in);
    std::fflush(in);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // the ranks run their loop
    REQUIRE(::kill(one, SIGKILL) == 0);
    const auto killed = std::chrono::steady_clock::now();
    const int status = ::pclose(in); // the console ends by itself: its input stays open until now
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    std::ifstream errors(err);
    const std::string text((std::istreambuf_iterator<char>(errors)), std::istreambuf_iterator<char>());
    INFO(text);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(seconds < 10.0);
    CHECK(text.find("gradstep debug: rank 1 ended without answering 'continue' (its process is gone)") != std::string::npos);
    // Rank 0 is gone too (not merely orphaned).
    bool gone = false;
    for (int i = 0; i < 50 && !gone; ++i) {
        gone = ::kill(zero, 0) != 0 && errno == ESRCH;
        if (!gone)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(gone);
}

TEST_CASE("debug --ranks 2 --interactive: when the controller is killed the paused ranks end")
{
    ScratchDir dir;
    const auto script = dir.write("paused.py",
        "import os\nimport numpy as np\nfrom mindspore import ops, Tensor\n"
        "from mindspore.communication import init, get_rank\ninit()\n"
        "with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rank%d.pid' % get_rank()), 'w') as f:\n"
        "    f.write(str(os.getpid()))\n"
        "x = ops.exp(Tensor(np.ones(4, np.float32)))\nprint(ops.AllReduce()(x))\n");
    int input[2];
    REQUIRE(::pipe(input) == 0);
    const pid_t controller = ::fork();
    REQUIRE(controller >= 0);
    if (controller == 0) {
        ::dup2(input[0], 0);
        ::close(input[1]);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        if (::chdir(GRADSTEP_SOURCE_DIR) == 0)
            ::execl(GRADSTEP_BINARY, GRADSTEP_BINARY, "debug", script.c_str(), "--ranks", "2", "--interactive", "--quiet",
                    static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(input[0]);
    const auto pidOf = [&](int rank) {
        pid_t pid = 0;
        std::ifstream(dir.file("rank" + std::to_string(rank) + ".pid")) >> pid;
        return pid;
    };
    for (int i = 0; i < 600 && (pidOf(0) == 0 || pidOf(1) == 0); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const pid_t zero = pidOf(0), one = pidOf(1);
    REQUIRE(zero > 0);
    REQUIRE(one > 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // both paused after their first node
    REQUIRE(::kill(controller, SIGKILL) == 0);
    int status = 0;
    ::waitpid(controller, &status, 0);
    const auto gone = [](pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; };
    bool ended = false;
    for (int i = 0; i < 100 && !ended; ++i) {
        ended = gone(zero) && gone(one);
        if (!ended)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::close(input[1]);
    CHECK(ended); // within 10 s
}

TEST_CASE("debug --ranks --interactive: pause stops a continue with every rank at the same node")
{
    ScratchDir dir;
    const auto script = dir.write("spin.py",
        "import numpy as np\nfrom mindspore import ops, Tensor\nfrom mindspore.communication import init, get_rank\n"
        "init()\nx = Tensor(np.arange(3).astype(np.float32) + get_rank())\n"
        "for i in range(1000000):\n    x = ops.AllReduce()(ops.sin(x)) * 0.5\n");
    for (int ranks : {2, 4}) {
        const auto started = std::chrono::steady_clock::now();
        const CommandResult r = console(shellQuote(script.string()), ranks, "continue\npause\nwhere\nquit\n");
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        INFO(ranks << " ranks\n" << r.out << r.err);
        REQUIRE(r.status == 0);
        const auto pauses = linesStartingWith(r.out, "[gradstep] ");
        REQUIRE(pauses.size() == 3); // the first pause, continue (paused), where
        CHECK(pauses[1].find("all " + std::to_string(ranks) + " ranks paused at the same node: node #") != std::string::npos);
        CHECK(pauses[2] == pauses[1]);
        const auto each = linesStartingWith(r.out, "rank ");
        REQUIRE(each.size() == std::size_t(ranks));
        for (const std::string& line : each)
            CHECK(line.substr(7) == each[0].substr(7));
        CHECK(seconds < 30.0);
    }
}

TEST_CASE("debug --ranks 2 --interactive: Ctrl+C pauses a continue under way instead of ending the console")
{
    ScratchDir dir;
    const auto script = dir.write("spin.py",
        "import numpy as np\nfrom mindspore import ops, Tensor\nfrom mindspore.communication import init, get_rank\n"
        "init()\nx = Tensor(np.arange(3).astype(np.float32) + get_rank())\n"
        "for i in range(1000000):\n    x = ops.AllReduce()(ops.sin(x)) * 0.5\n");
    const auto out = dir.file("stdout");
    int input[2];
    REQUIRE(::pipe(input) == 0);
    const pid_t console = ::fork();
    REQUIRE(console >= 0);
    if (console == 0) {
        ::dup2(input[0], 0);
        ::close(input[1]);
        const int file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(file, 1);
        ::dup2(null, 2);
        if (::chdir(GRADSTEP_SOURCE_DIR) == 0)
            ::execl(GRADSTEP_BINARY, GRADSTEP_BINARY, "debug", script.c_str(), "--ranks", "2", "--interactive", "--quiet",
                    static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(input[0]);
    const auto say = [&](const char* text) { REQUIRE(::write(input[1], text, std::strlen(text)) > 0); };
    const auto printed = [&] {
        std::ifstream in(out);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    for (int i = 0; i < 300 && printed().empty(); ++i) // the first pause
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    say("continue\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // the ranks run their loop
    REQUIRE(::kill(console, SIGINT) == 0);
    for (int i = 0; i < 200 && linesStartingWith(printed(), "[gradstep] ").size() < 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    say("quit\n");
    ::close(input[1]);
    int status = 0;
    ::waitpid(console, &status, 0);
    const std::string text = printed();
    INFO(text);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const auto pauses = linesStartingWith(text, "[gradstep] ");
    REQUIRE(pauses.size() == 2);
    CHECK(pauses[1].find("all 2 ranks paused at the same node: node #") != std::string::npos);
    CHECK(pauses[1] != pauses[0]);
}

TEST_CASE("debug --ranks 2 --interactive: a breakpoint only one rank hits pauses the other too, at one node")
{
    // exp(i * (rank + 1)) passes 1000 at i = 4 on rank 1 and i = 7 on rank 0: rank 1 stops before
    // the fifth all-reduce, in which rank 0 then waits.
    ScratchDir dir;
    const auto script = dir.write("uneven.py",
        "import numpy as np\nfrom mindspore import ops, Tensor\nfrom mindspore.communication import init, get_rank\n"
        "init()\nfor i in range(20):\n"
        "    y = ops.exp(Tensor(np.full(3, i * (get_rank() + 1), np.float32)))\n    z = ops.AllReduce()(y)\n");
    const auto started = std::chrono::steady_clock::now();
    const CommandResult r = console(shellQuote(script.string()), 2, "continue\nwhere\nquit\n", "--break 'tensor:max>1000'");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const auto pauses = linesStartingWith(r.out, "[gradstep] ");
    REQUIRE(pauses.size() == 3);
    // The first stop is rank 1's breakpoint; rank 0 was sent on through the all-reduce it waited in.
    CHECK(pauses[0].find("all 2 ranks paused at the same node: node #10 of step 1: AllReduce (AllReduce, forward)")
          != std::string::npos);
    CHECK(seconds < 30.0);
}

TEST_CASE("debug --ranks 2 --interactive: a rank that does not answer a step ends the ranks, naming it")
{
    ScratchDir dir;
    const auto script = dir.write("stuck.py",
        "import time\nimport numpy as np\nfrom mindspore import ops, Tensor\n"
        "from mindspore.communication import init, get_rank\ninit()\n"
        "a = ops.exp(Tensor(np.ones(3, np.float32)))\nif get_rank() == 1:\n    time.sleep(120)\n"
        "b = ops.sin(a)\nprint(ops.AllReduce()(b))\n");
    ::setenv("GRADSTEP_RANK_TIMEOUT", "2", 1);
    const auto started = std::chrono::steady_clock::now();
    const CommandResult r = console(shellQuote(script.string()), 2, "step\nstep\nquit\n");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ::unsetenv("GRADSTEP_RANK_TIMEOUT");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("gradstep debug: rank(s) 1 did not answer 'step' within 2 s") != std::string::npos);
    CHECK(r.err.find("rank 0 last paused at node #2 of step 1: Sin (Sin, forward)") != std::string::npos);
    CHECK(r.err.find("rank 1 still runs, outside the collectives") != std::string::npos);
    CHECK(seconds < 30.0);
}

TEST_CASE("debug --interactive needs --ranks")
{
    const CommandResult r = runGradstep("debug " + stepScript() + " --interactive");
    CHECK(r.status == 2);
    CHECK(r.err.find("--interactive steps the ranks of --ranks N") != std::string::npos);
}
