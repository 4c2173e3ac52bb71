// nn.SequentialCell. SPDX-License-Identifier: MIT
#include "nn/layers/sequential_cell.h"

namespace gradstep {

SequentialCell::SequentialCell(std::vector<CellPtr> cells) : Cell("SequentialCell")
{
    for (CellPtr& cell : cells)
        append(std::move(cell));
}

void SequentialCell::append(CellPtr cell)
{
    registerChild(std::to_string(size()), std::move(cell));
}

CellPtr SequentialCell::at(std::size_t index) const
{
    if (index >= size())
        throw IndexError("SequentialCell index " + std::to_string(index) + " out of range for "
                         + std::to_string(size()) + " cells");
    return children()[index].second;
}

Value SequentialCell::construct(const std::vector<Value>& args)
{
    if (children().empty())
        return args.size() == 1 ? args[0] : Value::tuple(args);
    Value x = (*children().front().second)(args);
    for (std::size_t i = 1; i < size(); ++i)
        x = (*children()[i].second)(std::vector<Value>{x});
    return x;
}

} // namespace gradstep
