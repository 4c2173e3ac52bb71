// Tests of Philox4x32-10 and MindSpore's word stream (core/random/philox.cpp).
// SPDX-License-Identifier: MIT
#include "random/philox.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace gradstep;

TEST_CASE("philox4x32_10 gives Random123's known answers")
{
    CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0})
          == PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    CHECK(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff})
          == PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    CHECK(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0})
          == PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("a stream's block n is the bijection of (n, seed) under the key seed, words in order")
{
    const std::uint64_t seed = 0x0123456789abcdefULL;
    PhiloxStream stream(seed);
    const PhiloxKey key{0x89abcdef, 0x01234567};
    for (std::uint32_t block = 0; block < 3; ++block) {
        const PhiloxCounter words = philox4x32_10({block, 0, 0x89abcdef, 0x01234567}, key);
        for (std::uint32_t word : words)
            CHECK(stream.next() == word);
    }
    SECTION("seed 0 starts with the first known answer")
    {
        PhiloxStream zero(0);
        CHECK(zero.next() == 0x6627e8d5);
        CHECK(zero.next() == 0xe169c58d);
    }
}

TEST_CASE("a stream started at a word gives what the whole stream gives from there")
{
    // MindSpore's threads each skip to their chunk; this is why their split cannot change values.
    PhiloxStream whole(42);
    std::vector<std::uint32_t> words;
    for (int i = 0; i < 23; ++i)
        words.push_back(whole.next());
    for (std::uint64_t start : {0, 1, 4, 6, 13}) {
        PhiloxStream part(42, start);
        for (std::size_t i = start; i < words.size(); ++i)
            CHECK(part.next() == words[i]);
    }
}
