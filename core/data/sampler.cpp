// Sampled random access. SPDX-License-Identifier: MIT
#include "data/sampler.h"

#include "data/order_cursor.h"
#include "tensor/errors.h"

#include <algorithm>
#include <mutex>

namespace gradstep::data {

namespace {

class SampledDataset : public Dataset {
public:
    SampledDataset(std::shared_ptr<const RowSource> source, std::vector<std::string> columns,
                   std::shared_ptr<const Sampler> sampler, std::optional<std::int64_t> numSamples)
        : m_source(std::move(source)), m_columns(std::move(columns)), m_sampler(std::move(sampler)),
          m_numSamples(numSamples)
    {
    }
    std::vector<std::string> columnNames() const override { return m_columns; }
    std::optional<std::int64_t> knownSize() const override
    {
        const auto count = m_sampler->count(m_source->size());
        if (!count)
            return std::nullopt;
        return m_numSamples ? std::min(*m_numSamples, *count) : *count;
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        const std::int64_t rows = m_source->size();
        std::vector<std::int64_t> order = m_sampler->indices(rows, epoch, shuffleSeed(epoch), labels());
        for (const std::int64_t index : order)
            if (index < 0 || index >= rows)
                throw ValueError("Sample ID (" + std::to_string(index) + ") is out of bound, expected range [0, "
                                 + std::to_string(rows - 1) + "]");
        if (m_numSamples && static_cast<std::int64_t>(order.size()) > *m_numSamples)
            order.resize(static_cast<std::size_t>(*m_numSamples));
        return std::make_unique<OrderCursor>(m_source, std::move(order), m_sampleSource);
    }

private:
    const std::vector<std::int64_t>& labels() const
    {
        std::lock_guard lock(m_labelsMutex);
        const auto column = m_sampler->classColumn();
        if (!column || m_labels)
            return m_labels ? *m_labels : m_noLabels;
        const std::size_t c = columnIndex(m_columns, *column, "PKSampler");
        std::vector<std::int64_t> labels;
        for (std::int64_t i = 0; i < m_source->size(); ++i) {
            const Array value = m_source->row(i)[c];
            if (value.numel() != 1 || value.type().kind == 'f')
                throw ValueError("PKSampler: class_column '" + *column + "' must hold one integer per row, got "
                                 + value.type().name() + " of " + std::to_string(value.numel()) + " value(s) in row "
                                 + std::to_string(i));
            labels.push_back(static_cast<std::int64_t>(value.at(0)));
        }
        m_labels = std::move(labels);
        return *m_labels;
    }

    std::shared_ptr<const RowSource> m_source;
    std::vector<std::string> m_columns;
    std::int64_t m_sampleSource = registerSampleSource(m_columns); ///< after m_columns
    std::shared_ptr<const Sampler> m_sampler;
    std::optional<std::int64_t> m_numSamples;
    mutable std::mutex m_labelsMutex;
    mutable std::optional<std::vector<std::int64_t>> m_labels;
    const std::vector<std::int64_t> m_noLabels;
};

} // namespace

DatasetPtr sampledRandomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns,
                               std::shared_ptr<const Sampler> sampler, std::optional<std::int64_t> numSamples)
{
    if (numSamples && *numSamples < 0)
        throw ValueError("num_samples must be non-negative, got " + std::to_string(*numSamples));
    return std::make_shared<SampledDataset>(std::move(source), std::move(columns), std::move(sampler), numSamples);
}

} // namespace gradstep::data
