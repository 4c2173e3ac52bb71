// Tests of the sampled random-access node (core/data/sampler.cpp). SPDX-License-Identifier: MIT
#include "data/sampler.h"
#include "tensor/errors.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::data;

namespace {

/// Rows 0..n-1: column "x" the index, column "label" the index modulo 3.
std::shared_ptr<const RowSource> rowsWithLabels(std::int64_t n)
{
    Array x(kInt64, Shape{n});
    Array label(kInt64, Shape{n});
    auto* xv = reinterpret_cast<std::int64_t*>(x.bytes());
    auto* lv = reinterpret_cast<std::int64_t*>(label.bytes());
    for (std::int64_t i = 0; i < n; ++i) {
        xv[i] = i;
        lv[i] = i % 3;
    }
    return std::make_shared<Table>(std::vector<Array>{x, label});
}

/// Gives `fixed` indices, or with a class column the rows whose label is 1, and records the
/// seeds it was asked with.
class FixedSampler : public Sampler {
public:
    FixedSampler(std::vector<std::int64_t> fixed, bool byClass) : m_fixed(std::move(fixed)), m_byClass(byClass) {}
    std::vector<std::int64_t> indices(std::int64_t /*rows*/, std::int64_t /*epoch*/, std::uint64_t seed,
                                      const std::vector<std::int64_t>& labels) const override
    {
        seeds.push_back(seed);
        if (!m_byClass)
            return m_fixed;
        std::vector<std::int64_t> out;
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (labels[i] == 1)
                out.push_back(static_cast<std::int64_t>(i));
        return out;
    }
    std::optional<std::int64_t> count(std::int64_t /*rows*/) const override
    {
        return m_byClass ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(m_fixed.size()));
    }
    std::optional<std::string> classColumn() const override
    {
        return m_byClass ? std::optional<std::string>("label") : std::nullopt;
    }
    mutable std::vector<std::uint64_t> seeds;

private:
    std::vector<std::int64_t> m_fixed;
    bool m_byClass;
};

std::vector<double> xs(const Dataset& dataset, std::int64_t epoch = 0)
{
    std::vector<double> out;
    auto cursor = dataset.open(epoch);
    while (auto row = cursor->next())
        out.push_back((*row)[0].at(0));
    return out;
}

} // namespace

TEST_CASE("a sampler's indices pick the rows, capped by num_samples")
{
    auto sampler = std::make_shared<FixedSampler>(std::vector<std::int64_t>{4, 0, 4, 2}, false);
    const auto all = sampledRandomAccess(rowsWithLabels(6), {"x", "label"}, sampler, std::nullopt);
    CHECK(xs(*all) == std::vector<double>{4, 0, 4, 2});
    CHECK(all->knownSize() == 4);
    const auto capped = sampledRandomAccess(rowsWithLabels(6), {"x", "label"}, sampler, 3);
    CHECK(xs(*capped) == std::vector<double>{4, 0, 4});
    CHECK(capped->knownSize() == 3);
    CHECK_THROWS_AS(sampledRandomAccess(rowsWithLabels(6), {"x", "label"}, sampler, -1), ValueError);
}

TEST_CASE("a seeded pipeline asks the sampler with the same seed per epoch, another one per new epoch")
{
    setSeed(42);
    auto sampler = std::make_shared<FixedSampler>(std::vector<std::int64_t>{1}, false);
    const auto dataset = sampledRandomAccess(rowsWithLabels(3), {"x", "label"}, sampler, std::nullopt);
    xs(*dataset, 0);
    xs(*dataset, 1);
    xs(*dataset, 0);
    clearSeed();
    REQUIRE(sampler->seeds.size() == 3);
    CHECK(sampler->seeds[0] == sampler->seeds[2]);
    CHECK(sampler->seeds[0] != sampler->seeds[1]);
}

TEST_CASE("an index outside the rows is an error naming it")
{
    auto sampler = std::make_shared<FixedSampler>(std::vector<std::int64_t>{0, 6}, false);
    const auto dataset = sampledRandomAccess(rowsWithLabels(6), {"x", "label"}, sampler, std::nullopt);
    CHECK_THROWS_WITH(dataset->open(0), Catch::Contains("Sample ID (6) is out of bound, expected range [0, 5]"));
}

TEST_CASE("a class sampler gets each row's label from its class column")
{
    auto sampler = std::make_shared<FixedSampler>(std::vector<std::int64_t>{}, true);
    const auto dataset = sampledRandomAccess(rowsWithLabels(7), {"x", "label"}, sampler, std::nullopt);
    CHECK(xs(*dataset) == std::vector<double>{1, 4});
    CHECK_FALSE(dataset->knownSize().has_value());
    const auto unnamed = sampledRandomAccess(rowsWithLabels(7), {"x", "y"}, sampler, std::nullopt);
    CHECK_THROWS_WITH(unnamed->open(0), Catch::Contains("column 'label' does not exist"));
}
