// Padding a batch column to one shape. SPDX-License-Identifier: MIT
#include "data/pad.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace gradstep::data {

namespace {

/// The shape every row is padded or cut to.
Shape targetShape(const std::vector<Array>& rows, const PadSpec& spec, const std::string& column)
{
    const int rank = rows.front().shape().rank();
    std::vector<std::int64_t> longest(static_cast<std::size_t>(rank), 0);
    for (const Array& row : rows) {
        if (row.shape().rank() != rank)
            throw RuntimeError("Invalid data, data to be padded together need to have the same rank, got shape 1: "
                               + std::to_string(row.shape().rank()) + ", shape 2: " + std::to_string(rank)
                               + " (column '" + column + "')");
        for (int d = 0; d < rank; ++d)
            longest[static_cast<std::size_t>(d)] = std::max(longest[static_cast<std::size_t>(d)], row.shape()[d]);
    }
    if (!spec.shape)
        return Shape(longest);
    if (static_cast<int>(spec.shape->size()) != rank)
        throw RuntimeError("Invalid pad_info, rank of pad_shape must be equal to rank of specified column. "
                           "pad_shapes rank:" + std::to_string(spec.shape->size()) + ", column rank: "
                           + std::to_string(rank) + " (column '" + column + "')");
    std::vector<std::int64_t> dims = *spec.shape;
    for (std::size_t d = 0; d < dims.size(); ++d)
        if (dims[d] < 0)
            dims[d] = longest[d];
    return Shape(dims);
}

/// The flat index in an array of `shape` of the element at `index` (row-major).
std::int64_t flatIndex(const Shape& shape, const std::vector<std::int64_t>& index)
{
    std::int64_t flat = 0;
    for (int d = 0; d < shape.rank(); ++d)
        flat = flat * shape[d] + index[static_cast<std::size_t>(d)];
    return flat;
}

/// Calls copy(from, to, count) for each run of the last axis that `input` and a `target`-shaped
/// array share (the region min(input, target) along every axis).
template <class Copy> void forSharedRuns(const Shape& input, const Shape& target, Copy copy)
{
    const int rank = input.rank();
    if (rank == 0) {
        copy(0, 0, 1);
        return;
    }
    std::vector<std::int64_t> extent(static_cast<std::size_t>(rank));
    for (int d = 0; d < rank; ++d)
        extent[static_cast<std::size_t>(d)] = std::min(input[d], target[d]);
    if (std::find(extent.begin(), extent.end(), 0) != extent.end())
        return;
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
    const std::int64_t run = extent.back();
    while (true) {
        copy(flatIndex(input, index), flatIndex(target, index), run);
        int d = rank - 2;
        for (; d >= 0; --d) {
            if (++index[static_cast<std::size_t>(d)] < extent[static_cast<std::size_t>(d)])
                break;
            index[static_cast<std::size_t>(d)] = 0;
        }
        if (d < 0)
            return;
    }
}

Array padStrings(const Array& row, const Shape& target, const std::string& value)
{
    std::vector<std::string> out(static_cast<std::size_t>(target.numel()), value);
    forSharedRuns(row.shape(), target, [&](std::int64_t from, std::int64_t to, std::int64_t count) {
        std::copy_n(row.strings().begin() + from, count, out.begin() + to);
    });
    return {target, std::move(out)};
}

Array padNumbers(const Array& row, const Shape& target, double value)
{
    Array out(row.type(), target);
    const auto item = static_cast<std::int64_t>(row.type().size);
    if (value != 0.0) {
        if (row.type() == ElementType{'f', 2})
            throw RuntimeError("padded_batch: a float16 column pads with 0 only; cast it to float32 first");
        visitElement(row.type(), [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            // integers through int64 (a negative pad value wraps in an unsigned column, as NumPy's)
            T fill;
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
                fill = static_cast<T>(static_cast<std::int64_t>(value));
            else
                fill = static_cast<T>(value);
            for (std::int64_t i = 0; i < target.numel(); ++i)
                std::memcpy(out.bytes() + i * item, &fill, sizeof fill);
        });
    }
    forSharedRuns(row.shape(), target, [&](std::int64_t from, std::int64_t to, std::int64_t count) {
        std::memcpy(out.bytes() + to * item, row.bytes() + from * item, static_cast<std::size_t>(count * item));
    });
    return out;
}

} // namespace

std::vector<Array> padColumn(const std::vector<Array>& rows, const PadSpec& spec, const std::string& column)
{
    if (rows.empty())
        return {};
    const Shape target = targetShape(rows, spec, column);
    const bool strings = rows.front().isString();
    if (strings ? spec.number.has_value() : spec.text.has_value())
        throw RuntimeError("Invalid pad_info, the pad value of column '" + column + "' is a "
                           + (strings ? "number" : "string") + " but the column holds "
                           + (strings ? "strings" : "numbers"));
    std::vector<Array> out;
    out.reserve(rows.size());
    for (const Array& row : rows) {
        if (row.isString() != strings)
            throw RuntimeError("Invalid data, column '" + column + "' mixes strings and numbers in one batch");
        if (row.shape() == target)
            out.push_back(row);
        else if (strings)
            out.push_back(padStrings(row, target, spec.text.value_or("")));
        else
            out.push_back(padNumbers(row, target, spec.number.value_or(0.0)));
    }
    return out;
}

} // namespace gradstep::data
