// nn.SequentialCell: children "0", "1", ... run in order, each fed the previous one's output.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class SequentialCell : public Cell {
public:
    explicit SequentialCell(std::vector<CellPtr> cells = {});
    /// Adds a cell at the end under the next index.
    void append(CellPtr cell);
    std::size_t size() const { return children().size(); }
    /// IndexError naming the index when it is out of range.
    CellPtr at(std::size_t index) const;
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
