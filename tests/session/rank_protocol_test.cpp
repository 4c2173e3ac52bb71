// The ranks' protocol without processes: messages through a socket pair (whole, split, with their
// binary block, a closed peer), gradients messages both ways, and the spread and verdict of the
// ranks' gradients against their all-reduced value (mean, sum, neither, not yet).
// SPDX-License-Identifier: MIT
#include "session/rank_spread.h"
#include "session/rank_state.h"
#include "session/rank_wire.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

using namespace gradstep;
using namespace gradstep::session;

TEST_CASE("A rank message crosses a socket with its block, also in pieces, and a closed peer is seen")
{
    int pair[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
    const std::vector<double> values{1.5, -2.0, std::numeric_limits<double>::infinity(), 3e-300};
    REQUIRE(sendRankMessage(pair[0], Json(Json::Object{{"cmd", "tensor"}, {"count", 4}}), doublesToBlock(values)));
    RankReader reader(pair[1]);
    RankMessage m;
    REQUIRE(reader.read(std::chrono::milliseconds(1000), m) == RankReader::Result::Message);
    CHECK(m.header["cmd"].asString() == "tensor");
    CHECK(m.header["bytes"].asInt() == 32);
    CHECK(doublesFromBlock(m.block, 0, 4) == values);
    CHECK_THROWS(doublesFromBlock(m.block, 8, 4));
    // Nothing more: pending; then a message written in two pieces.
    CHECK(reader.read(std::chrono::milliseconds(10), m) == RankReader::Result::Pending);
    const std::string whole = "{\"cmd\":\"step\",\"bytes\":2}\nab";
    REQUIRE(::write(pair[0], whole.data(), 10) == 10);
    CHECK(reader.read(std::chrono::milliseconds(10), m) == RankReader::Result::Pending);
    REQUIRE(::write(pair[0], whole.data() + 10, whole.size() - 10) == ssize_t(whole.size() - 10));
    REQUIRE(reader.read(std::chrono::milliseconds(1000), m) == RankReader::Result::Message);
    CHECK(m.header["cmd"].asString() == "step");
    CHECK(m.block == "ab");
    ::close(pair[0]);
    CHECK(reader.read(std::chrono::milliseconds(1000), m) == RankReader::Result::Closed);
    ::close(pair[1]);
    CHECK(std::isnan(rankWireNumberValue(rankWireNumber(std::nan("")))));
    CHECK(rankWireNumberValue(rankWireNumber(-std::numeric_limits<double>::infinity())) < 0);
}

namespace {

RankGradient gradient(const std::string& name, std::vector<double> local, std::optional<std::vector<double>> reduced)
{
    RankGradient g;
    g.name = name;
    g.shape = {std::int64_t(local.size())};
    g.local = std::move(local);
    g.reduced = std::move(reduced);
    return g;
}

} // namespace

TEST_CASE("The gradients' spread: norms per rank, mean, spread and the all-reduced value against mean and sum")
{
    const std::vector<double> a{3.0, 4.0}, b{0.0, 1.0}, mean{1.5, 2.5}, sum{3.0, 5.0};
    SECTION("averaged")
    {
        const auto spread = gradientSpread({{gradient("w", a, mean)}, {gradient("w", b, mean)}});
        REQUIRE(spread.size() == 1);
        CHECK(spread[0].localNorms == std::vector<double>{5.0, 1.0});
        CHECK(spread[0].meanNorm == 3.0);
        CHECK(spread[0].spread == 4.0);
        CHECK(spread[0].meanOfLocalNorm == Approx(std::sqrt(1.5 * 1.5 + 2.5 * 2.5)));
        CHECK(*spread[0].relativeToMean == 0.0);
        CHECK(*spread[0].relativeToSum > 0.4);
        CHECK(spread[0].ranksAgree);
        CHECK(reductionVerdict(spread).rfind("The all-reduced gradients are the mean of the ranks' own gradients", 0) == 0);
        const std::string table = gradientSpreadText(spread);
        CHECK(table.find("|g| rank 1") != std::string::npos);
        const std::size_t row = table.find("\nw ");
        REQUIRE(row != std::string::npos);
        std::istringstream cells(table.substr(row + 1, table.find('\n', row + 1) - row - 1));
        std::vector<std::string> words;
        for (std::string w; cells >> w;)
            words.push_back(w);
        CHECK(words == std::vector<std::string>{"w", "5", "1", "3", "4", "2.91548", "2.91548", "0"});
    }
    SECTION("summed")
    {
        const auto spread = gradientSpread({{gradient("w", a, sum)}, {gradient("w", b, sum)}});
        CHECK(reductionVerdict(spread).find("are the sum of the ranks' own gradients, not their mean") != std::string::npos);
    }
    SECTION("neither, and ranks that received different values")
    {
        const auto spread = gradientSpread({{gradient("w", a, a)}, {gradient("w", b, b)}});
        CHECK_FALSE(spread[0].ranksAgree);
        const std::string verdict = reductionVerdict(spread);
        CHECK(verdict.find("neither the mean nor the sum") != std::string::npos);
        CHECK(verdict.find("did not all receive the same all-reduced gradients") != std::string::npos);
    }
    SECTION("part of the parameters all-reduced so far, then none")
    {
        const auto some = gradientSpread({{gradient("w", a, mean), gradient("b", a, std::nullopt)},
                                          {gradient("w", b, mean), gradient("b", b, std::nullopt)}});
        CHECK(reductionVerdict(some).rfind("The 1 of 2 gradients all-reduced so far are the mean", 0) == 0);
        const auto none = gradientSpread({{gradient("b", a, std::nullopt)}, {gradient("b", b, std::nullopt)}});
        CHECK(reductionVerdict(none).rfind("The gradients are not all-reduced yet", 0) == 0);
        CHECK(reductionVerdict({}).rfind("No gradients in this step yet", 0) == 0);
    }
}

TEST_CASE("A rank pause says where it is, and the ranks agree only at the same node of the same step")
{
    Json json(Json::Object{{"rank", 1}, {"status", "paused"}, {"reason", "step"}, {"condition", ""}, {"step", 2},
                           {"nodes", 40}, {"collectives", 3}, {"seq", 7}, {"node", "Net/Dense/MatMul"}, {"op", "MatMul"},
                           {"phase", "forward"}, {"location", "train.py:12:9"},
                           {"tensors", Json(Json::Array{Json("output 0"), Json("input 0")})}});
    const RankPause one = rankPauseFromJson(json);
    CHECK(one.describe() == "node #7 of step 2: Net/Dense/MatMul (MatMul, forward) at train.py:12:9");
    CHECK(one.tensors == std::vector<std::string>{"output 0", "input 0"});
    CHECK(one.collectives == 3); // the world's collectives the rank completed, for lining the ranks up
    RankPause zero = one;
    zero.rank = 0;
    CHECK(ranksAgreementText({zero, one}).rfind("all 2 ranks paused at the same node: node #7 of step 2", 0) == 0);
    zero.seq = 8;
    CHECK(ranksAgreementText({zero, one})
          == "the 2 ranks are not at the same node: rank 0 node #8 of step 2: Net/Dense/MatMul (MatMul, forward) at "
             "train.py:12:9; rank 1 node #7 of step 2: Net/Dense/MatMul (MatMul, forward) at train.py:12:9");
    RankPause done;
    done.status = "finished";
    done.reason = "end";
    CHECK(done.describe() == "finished (end)");
    CHECK(ranksAgreementText({done, done}) == "all 2 ranks finished");
}
