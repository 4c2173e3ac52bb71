// A cursor over a random-access source in a given order of row indices (a shuffle, a shard).
// SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"

#include <memory>
#include <utility>
#include <vector>

namespace gradstep::data {

class OrderCursor : public Cursor {
public:
    OrderCursor(std::shared_ptr<const RowSource> source, std::vector<std::int64_t> order)
        : m_source(std::move(source)), m_order(std::move(order))
    {
    }
    std::optional<Row> next() override
    {
        if (m_position == m_order.size())
            return std::nullopt;
        return m_source->row(m_order[m_position++]);
    }

private:
    std::shared_ptr<const RowSource> m_source;
    std::vector<std::int64_t> m_order;
    std::size_t m_position = 0;
};

} // namespace gradstep::data
