// Tests of breakpoints (core/debug/breakpoints.h): matching, hit messages and parsing.
// SPDX-License-Identifier: MIT
#include "debug/breakpoints.h"
#include "tests/core/debug/debug_test_util.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::testing;

namespace {
NodeRecord conv()
{
    NodeRecord r = recordOf("Conv2D", Phase::Forward, {Tensor::zeros(Shape{1})},
                            {Tensor::fromVector<float>(Shape{3}, {1.0f, 2000.0f, -5.0f})});
    r.scope = "LeNet5/conv1";
    r.fullName = "LeNet5/conv1/Conv2D";
    r.label = "conv2d";
    return r;
}
} // namespace

TEST_CASE("fnmatch-like globs: star, question mark, sets, ranges, negation and escapes")
{
    CHECK(globMatch("LeNet5/conv*/*", "LeNet5/conv1/Conv2D"));
    CHECK_FALSE(globMatch("LeNet5/conv*/*", "LeNet5/fc1/MatMul"));
    CHECK(globMatch("*", ""));
    CHECK(globMatch("*MatMul", "Net/fc/MatMul"));
    CHECK(globMatch("Net/fc?/MatMul", "Net/fc2/MatMul"));
    CHECK_FALSE(globMatch("Net/fc?/MatMul", "Net/fc/MatMul"));
    CHECK(globMatch("conv[12]", "conv2"));
    CHECK_FALSE(globMatch("conv[12]", "conv3"));
    CHECK(globMatch("conv[0-9]", "conv7"));
    CHECK(globMatch("conv[!0-9]", "convx"));
    CHECK_FALSE(globMatch("conv[!0-9]", "conv5"));
    CHECK(globMatch("a\\*b", "a*b"));
    CHECK_FALSE(globMatch("a\\*b", "axb"));
    CHECK(globMatch("a[b", "a[b")); // an unclosed '[' is itself
    CHECK(globMatch("*a*a*a*", "banana-a"));
    CHECK_FALSE(globMatch("abc", "abcd"));
}

TEST_CASE("an op breakpoint matches the op name or label and says where")
{
    Breakpoint bp = parseBreakpoint("op:Conv2D");
    std::optional<Hit> hit = matchBreakpoint(bp, conv(), nullptr);
    REQUIRE(hit);
    CHECK(hit->message == "op Conv2D at LeNet5/conv1/Conv2D (train.py:27)");
    CHECK(matchBreakpoint(parseBreakpoint("op:conv2d"), conv(), nullptr));
    CHECK_FALSE(matchBreakpoint(parseBreakpoint("op:MatMul"), conv(), nullptr));
}

TEST_CASE("a name breakpoint globs over the full name, backward nodes under Gradients")
{
    CHECK(matchBreakpoint(parseBreakpoint("name:LeNet5/conv*/*"), conv(), nullptr));
    NodeRecord back = conv();
    back.phase = Phase::Backward;
    back.fullName = "Gradients/LeNet5/conv1/Conv2D";
    CHECK_FALSE(matchBreakpoint(parseBreakpoint("name:LeNet5/conv*/*"), back, nullptr));
    CHECK(matchBreakpoint(parseBreakpoint("name:Gradients/*"), back, nullptr));
}

TEST_CASE("a line breakpoint hits once per arrival at the line, never on backward nodes")
{
    const Breakpoint bp = parseBreakpoint("train.py:27");
    const NodeRecord r = conv();
    std::optional<Hit> hit = matchBreakpoint(bp, r, nullptr);
    REQUIRE(hit);
    CHECK(hit->message == "line train.py:27 reached: op Conv2D at LeNet5/conv1/Conv2D (train.py:27)");
    // The next node on the same line does not hit again.
    CHECK_FALSE(matchBreakpoint(bp, r, &r));
    NodeRecord elsewhere = r;
    elsewhere.location.line = 26;
    CHECK(matchBreakpoint(bp, r, &elsewhere));
    CHECK(matchBreakpoint(parseBreakpoint("27"), r, nullptr));
    CHECK(matchBreakpoint(parseBreakpoint("/src/train.py:27"), r, nullptr));
    CHECK_FALSE(matchBreakpoint(parseBreakpoint("rain.py:27"), r, nullptr));
    CHECK_FALSE(matchBreakpoint(parseBreakpoint("train.py:28"), r, nullptr));
    NodeRecord back = r;
    back.phase = Phase::Backward;
    CHECK_FALSE(matchBreakpoint(bp, back, nullptr));
}

TEST_CASE("a phase breakpoint hits on the first node of the phase only")
{
    const Breakpoint bp = parseBreakpoint("phase:backward");
    NodeRecord forward = conv();
    NodeRecord back = conv();
    back.phase = Phase::Backward;
    CHECK_FALSE(matchBreakpoint(bp, forward, nullptr));
    std::optional<Hit> hit = matchBreakpoint(bp, back, &forward);
    REQUIRE(hit);
    CHECK(hit->message == "phase backward begins (after forward) at backward of LeNet5/conv1/Conv2D (train.py:27)");
    CHECK_FALSE(matchBreakpoint(bp, back, &back));
}

TEST_CASE("a tensor breakpoint names the output and the value that crossed the threshold")
{
    std::optional<Hit> hit = matchBreakpoint(parseBreakpoint("tensor:max>1e3"), conv(), nullptr);
    REQUIRE(hit);
    CHECK(hit->output == 0u);
    CHECK(hit->value == 2000.0);
    CHECK(hit->message == "output 0 of LeNet5/conv1/Conv2D (train.py:27) has max 2000 > 1000");
    CHECK(matchBreakpoint(parseBreakpoint("tensor:min <= -5"), conv(), nullptr));
    CHECK_FALSE(matchBreakpoint(parseBreakpoint("tensor:nan_count>0"), conv(), nullptr));
}

TEST_CASE("a breakpoint set matches the first enabled breakpoint and counts hits")
{
    BreakpointSet set;
    const int op = set.add("op:Conv2D");
    const int name = set.add("name:LeNet5/*");
    CHECK(op != name);
    std::optional<Hit> hit = set.match(conv(), nullptr);
    REQUIRE(hit);
    CHECK(hit->breakpointId == op);
    CHECK(hit->recordSeq == 7);
    CHECK(set.find(op)->hitCount == 1);
    CHECK(set.setEnabled(op, false));
    CHECK(set.match(conv(), nullptr)->breakpointId == name);
    CHECK(set.remove(name));
    CHECK_FALSE(set.match(conv(), nullptr));
    CHECK_FALSE(set.remove(99));
    CHECK(set.find(op)->toString() == "op:Conv2D");
}

TEST_CASE("breakpoints print back as the text they were parsed from")
{
    for (const char* text : {"27", "main.py:27", "op:Conv2D", "name:LeNet5/conv*/*", "phase:update",
                             "tensor:max>1000", "tensor:nan_count>=1"})
        CHECK(parseBreakpoint(text).toString() == text);
}

TEST_CASE("malformed breakpoints are refused with a message naming the problem")
{
    auto message = [](const char* text) {
        try {
            parseBreakpoint(text);
        } catch (const ValueError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message("") == "breakpoint '': empty, expected LINE, FILE:LINE, op:TYPE, name:GLOB, "
                         "phase:PHASE or tensor:STAT>NUMBER");
    CHECK(message("main.py:x") == "breakpoint 'main.py:x': line 'x' is not a positive whole number");
    CHECK(message("0") == "breakpoint '0': line '0' is not a positive whole number");
    CHECK(message("op:") == "breakpoint 'op:': nothing after 'op:'");
    CHECK(message("phase:sideways")
          == "breakpoint 'phase:sideways': unknown phase 'sideways', expected forward, backward or update");
    CHECK(message("Op:Conv2D") == "breakpoint 'Op:Conv2D': unknown kind 'Op:', expected op:, name:, "
                                  "phase:, tensor: or FILE:LINE");
    CHECK(message("tensor:maximum>3").find("unknown statistic 'maximum', expected one of min, max")
          != std::string::npos);
    CHECK(message("tensor:max") == "breakpoint 'tensor:max': tensor condition 'max' has no comparison, "
                                   "expected STAT OP NUMBER such as max>1e3");
    CHECK(message("tensor:max>lots")
          == "breakpoint 'tensor:max>lots': tensor condition 'max>lots': threshold 'lots' is not a number");
    CHECK(message("conv") == "breakpoint 'conv': expected LINE, FILE:LINE, op:TYPE, name:GLOB, "
                             "phase:PHASE or tensor:STAT>NUMBER");
}
