// Tests of the IDX reader (core/data/idx.cpp) on the digit files shipped in samples/data.
// SPDX-License-Identifier: MIT
#include "data/idx.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

using namespace gradstep;

namespace {
const std::string kData = GRADSTEP_SOURCE_DIR "/samples/data/";
}

TEST_CASE("the shipped digit images load as 1x32x32 tensors with pixels from 0 to 1 and labels 0..9")
{
    Tensor images = readIdxImages(kData + "digits-train-images-idx3-ubyte");
    Tensor labels = readIdxLabels(kData + "digits-train-labels-idx1-ubyte");
    CHECK(images.shape() == Shape{1500, 1, 32, 32});
    CHECK(labels.shape() == Shape{1500});
    double lo = 1, hi = 0;
    for (double v : images.toDoubles()) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    CHECK(lo == 0.0);
    CHECK(hi == 1.0);
    for (int i = 0; i < 10; ++i)
        CHECK(labels.at(i) == i); // the data set starts with one of each digit, in order
}

TEST_CASE("a missing or malformed IDX file is an error naming the file")
{
    CHECK_THROWS_WITH(readIdxImages("/nonexistent/x.idx"), Catch::Contains("/nonexistent/x.idx: cannot open"));
    const std::string path = "idx_test_truncated.idx";
    {
        std::ofstream out(path, std::ios::binary);
        const unsigned char header[] = {0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2};
        out.write(reinterpret_cast<const char*>(header), sizeof header);
    }
    CHECK_THROWS_WITH(readIdxImages(path), Catch::Contains("header says 2 images of 2x2"));
    CHECK_THROWS_WITH(readIdxLabels(path), Catch::Contains("IDX magic number 2051, expected 2049"));
    std::remove(path.c_str());
}
