// Rows of a random-access source in the order a sampler gives (MindSpore's RandomSampler,
// SequentialSampler, SubsetRandomSampler, SubsetSampler, WeightedRandomSampler, and samplers a
// script writes). The sampler itself lives in the Python layer; this node only asks it for each
// epoch's indices and checks them. SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"

#include <string>

namespace gradstep::data {

class Sampler {
public:
    virtual ~Sampler() = default;
    /// The row indices of epoch `epoch` over `rows` rows; `seed` is the epoch's shuffle seed
    /// (shuffleSeed), so seeded runs repeat. `labels`: each row's class when classColumn() names
    /// one (PKSampler), else empty.
    virtual std::vector<std::int64_t> indices(std::int64_t rows, std::int64_t epoch, std::uint64_t seed,
                                              const std::vector<std::int64_t>& labels) const = 0;
    /// How many indices an epoch has, when known without drawing them.
    virtual std::optional<std::int64_t> count(std::int64_t rows) const = 0;
    /// The column of scalar integer class labels the sampler draws by, if any (read once per
    /// data set, then kept).
    virtual std::optional<std::string> classColumn() const { return std::nullopt; }
};

/// The rows of `source` at the sampler's indices, at most numSamples per epoch. An index outside
/// [0, rows) is a ValueError naming it (MindSpore: "Sample ID ... is out of bound").
DatasetPtr sampledRandomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns,
                               std::shared_ptr<const Sampler> sampler, std::optional<std::int64_t> numSamples);

} // namespace gradstep::data
