// The passes that claim to be exact give the same bits as the graph they rewrite, on inputs
// chosen to break a careless rewrite: ties, +0 and -0, infinities, NaNs of two payloads, windows
// with no positive element. SPDX-License-Identifier: MIT
#include "graph/executor.h"
#include "graph/text_parser.h"
#include "passes/pass.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace gradstep;

namespace {

// Values drawn from a small set of awkward floats, deterministically.
Tensor awkward(const TensorSpec& spec, std::uint64_t seed)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const double pool[] = {1.5, 1.5, -1.0, 0.0, -0.0, 2.0, -2.0, inf, -inf, nan, -nan, 0.25, -0.5, 3.0};
    std::vector<double> v(static_cast<std::size_t>(spec.shape.numel()));
    for (double& x : v) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x = pool[(seed >> 33) % std::size(pool)];
    }
    return Tensor::fromDoubles(spec.shape, v, spec.dtype);
}

void requireSameBits(const std::string& text, const PassInfo& pass, std::uint64_t seed)
{
    const Graph before = parseGraph(text);
    const PassResult after = pass.run(before);
    REQUIRE(after.changed);
    TensorList inputs;
    for (ValueId id : before.inputs())
        inputs.push_back(awkward(before.spec(id), seed + static_cast<std::uint64_t>(id)));
    const TensorList a = executeGraph(before, inputs), b = executeGraph(after.graph, inputs);
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        INFO("output " << k);
        REQUIRE(a[k].shape() == b[k].shape());
        CHECK(std::memcmp(a[k].rawData(), b[k].rawData(), a[k].nbytes()) == 0);
    }
}

// The graph text with every "DT" made `dtype` ("f32", "f64").
std::string withDType(std::string text, const char* dtype)
{
    for (std::size_t at = text.find("DT"); at != std::string::npos; at = text.find("DT"))
        text.replace(at, 2, dtype);
    return text;
}

} // namespace

TEST_CASE("pool_before_relu gives the same bits on ties, signed zeros, infinities and NaNs")
{
    const std::string graph = R"(graph @f(%x : DT[4, 3, 8, 10], %g : DT[4, 3, 4, 5]) {
  %0 : DT[4, 3, 8, 10] = ReLU(%x)
  %1 : DT[4, 3, 4, 5] = MaxPool(%0) {kernel_size=(2, 2), strides=(2, 2), pad_mode='valid'}
  %2 : DT[4, 3, 8, 10] = MaxPoolReluGrad(%0, %g) {kernel_size=(2, 2), strides=(2, 2), pad_mode='valid'}
  return %1, %2
})";
    const std::string overlapping = R"(graph @f(%x : DT[2, 2, 7, 7], %g : DT[2, 2, 3, 3]) {
  %0 : DT[2, 2, 7, 7] = ReLU(%x)
  %1 : DT[2, 2, 3, 3] = MaxPool(%0) {kernel_size=(3, 3), strides=(2, 2), pad_mode='valid'}
  %2 : DT[2, 2, 7, 7] = MaxPoolReluGrad(%0, %g) {kernel_size=(3, 3), strides=(2, 2), pad_mode='valid'}
  return %1, %2
})";
    for (const char* dtype : {"f32", "f64"})
        for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
            DYNAMIC_SECTION(dtype << " seed " << seed)
            {
                for (const std::string& text : {graph, overlapping})
                    requireSameBits(withDType(text, dtype), kPoolBeforeReluPass, seed);
            }
        }
}

TEST_CASE("conv_cols_reuse gives the same bits as the convolution and filter gradient it replaces")
{
    for (const char* dtype : {"f32", "f64"}) {
        DYNAMIC_SECTION(dtype)
        {
            const std::string text = R"(graph @f(%x : DT[3, 2, 9, 8], %w : DT[4, 2, 3, 3], %g : DT[3, 4, 7, 6]) {
  %0 : DT[3, 4, 7, 6] = Conv2D(%x, %w) {stride=(1, 1), pad_mode='valid', pad=(0,), dilation=(1, 1), group=1}
  %1 : DT[4, 2, 3, 3] = Conv2DBackpropFilter(%g, %x) {stride=(1, 1), pad_mode='valid', pad=(0,), dilation=(1, 1), group=1, filter_size=(4, 2, 3, 3)}
  return %0, %1
})";
            requireSameBits(withDType(text, dtype), kConvColsReusePass, 7);
        }
    }
}
