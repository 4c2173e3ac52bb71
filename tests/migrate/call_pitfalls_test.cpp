// Tests core/migrate/call_pitfalls.cpp: functional calls that compute different things are named
// with both calls as written and their differing arguments; equal ones say nothing.
// SPDX-License-Identifier: MIT
#include "migrate/call_pitfalls.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;

namespace {

/// A capture's "calls" entry: the function, its arguments, what it returned; `init` for a primitive.
Json call(const std::string& framework, const std::string& function, const std::string& args,
          const std::string& kwargs, const std::string& outputs, const std::string& init = "")
{
    Json c(Json::Object{{"framework", framework}, {"module", "block"}, {"position", 0}, {"function", function},
                        {"args", Json::parse(args)}, {"kwargs", Json::parse(kwargs)}, {"outputs", Json::parse(outputs)}});
    if (!init.empty())
        c["init"] = Json::parse(init);
    return c;
}

std::vector<std::string> pitfalls(const Json& t, const Json& m, const std::string& layer = "block")
{
    return callPitfalls({&t}, {&m}, layer);
}

std::string only(const std::vector<std::string>& found)
{
    REQUIRE(found.size() == 1);
    return found[0];
}

} // namespace

TEST_CASE("torch.split's piece size against Split's output_num is named with both calls and their pieces")
{
    const Json t = call("torch", "torch.split", R"([{"tensor": [4, 16]}, 8])", R"({"dim": 1})", "[[4, 8], [4, 8]]");
    const Json m = call("mindspore", "ops.Split", R"([{"tensor": [4, 16]}])", "{}",
                        "[[4, 2], [4, 2], [4, 2], [4, 2], [4, 2], [4, 2], [4, 2], [4, 2]]", R"({"axis": 1, "output_num": 8})");
    const std::string why = only(pitfalls(t, m));
    CHECK_THAT(why, Catch::StartsWith("torch.split(x, 8, dim=1) makes 2 pieces of size 8 along axis 1; "
                                      "ops.Split(axis=1, output_num=8)(x) makes 8 pieces of size 2 along axis 1")
                        && Catch::Contains("write ops.split(x, 8, axis=1)"));
}

TEST_CASE("splits into the same pieces are not named, whatever each side calls them")
{
    const Json t = call("torch", "Tensor.chunk", R"([{"tensor": [4, 8]}, 2])", R"({"dim": 1})", "[[4, 4], [4, 4]]");
    const Json m = call("mindspore", "ops.split", R"([{"tensor": [4, 8]}, 4])", R"({"axis": 1})", "[[4, 4], [4, 4]]");
    CHECK(pitfalls(t, m).empty());
}

TEST_CASE("clamp's upper bound passed as clip_by_value's second argument is named as a lower bound")
{
    const Json t = call("torch", "Tensor.clamp", R"([{"tensor": [4, 8]}])", R"({"max": 0.05})", "[[4, 8]]");
    const Json m = call("mindspore", "ops.clip_by_value", R"([{"tensor": [4, 8]}, 0.05])", "{}", "[[4, 8]]");
    const std::string why = only(pitfalls(t, m));
    CHECK_THAT(why, Catch::Contains("x.clamp(max=0.05) (a PyTorch Tensor method) keeps the values in (-inf, 0.05]")
                        && Catch::Contains("ops.clip_by_value(x, 0.05) keeps the values in [0.05, inf)")
                        && Catch::Contains("write clip_value_max=0.05"));
}

TEST_CASE("swapped clip_by_value bounds say every element becomes the upper bound")
{
    const Json t = call("torch", "torch.clamp", R"([{"tensor": [4]}, -1, 1])", "{}", "[[4]]");
    const Json m = call("mindspore", "ops.clip_by_value", R"([{"tensor": [4]}, 1, -1])", "{}", "[[4]]");
    CHECK_THAT(only(pitfalls(t, m)), Catch::Contains("sets every element to -1") && Catch::Contains("the bounds are swapped"));
}

TEST_CASE("F.normalize's dim against L2Normalize's default axis is named, in the container's code")
{
    const Json t = call("torch", "torch.nn.functional.normalize", R"([{"tensor": [32, 8]}])",
                        R"({"p": 2.0, "dim": 1, "eps": 1e-12, "out": null})", "[[32, 8]]");
    const Json m = call("mindspore", "ops.L2Normalize", R"([{"tensor": [32, 8]}])", "{}", "[[32, 8]]",
                        R"({"axis": [0], "epsilon": 0.0001})");
    const std::string why = only(pitfalls(t, m, "block.out"));
    CHECK_THAT(why, Catch::StartsWith("in block's own code: torch.nn.functional.normalize(x, p=2, dim=1, eps=1e-12) vs "
                                      "ops.L2Normalize(axis=0, epsilon=0.0001)(x): normalises along dim=1 vs axis=0"));
}

TEST_CASE("a norm's order left at MindSpore's default is named against PyTorch's p")
{
    const Json t = call("torch", "Tensor.norm", R"([{"tensor": [32, 8]}])", R"({"p": 1, "dim": 1, "keepdim": true})",
                        "[[32, 1]]");
    const Json m = call("mindspore", "Tensor.norm", R"([{"tensor": [32, 8]}])", R"({"dim": 1, "keepdim": true})", "[[32, 1]]");
    CHECK_THAT(only(pitfalls(t, m)), Catch::Contains("is the 1-norm, p=1")
                                         && Catch::Contains("the 2-norm, ord=None (MindSpore's default)"));
}

TEST_CASE("leaky_relu's slope left at MindSpore's default alpha is named")
{
    const Json t = call("torch", "torch.nn.functional.leaky_relu", R"([{"tensor": [4]}])",
                        R"({"negative_slope": 0.01, "inplace": false})", "[[4]]");
    const Json m = call("mindspore", "ops.leaky_relu", R"([{"tensor": [4]}])", "{}", "[[4]]");
    CHECK(only(pitfalls(t, m)) == "negative_slope=0.01 in torch.nn.functional.leaky_relu(x, negative_slope=0.01) vs "
                                  "alpha=0.2 (MindSpore's default) in ops.leaky_relu(x)");
}
