// Padding the rows of one batch column to a common shape: what padded_batch (and
// bucket_batch_by_length) do before stacking rows of different lengths, with MindSpore's rules.
// SPDX-License-Identifier: MIT
#pragma once

#include "data/array.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::data {

/// How one column is padded: to `shape` (no shape, or -1 entries, take the batch's longest along
/// that axis) with `number` for numeric columns and `text` for string columns (0 and "" by default).
struct PadSpec {
    std::optional<std::vector<std::int64_t>> shape;
    std::optional<double> number;
    std::optional<std::string> text;
};

/// `rows` (one column of a batch) padded at the end of each axis to one shape; rows longer than
/// the spec's shape are cut, as MindSpore's PadEnd cuts them. RuntimeError naming `column` when
/// the rows' ranks differ, the shape's rank is not theirs, or the pad value's kind (number or
/// string) is not the column's.
std::vector<Array> padColumn(const std::vector<Array>& rows, const PadSpec& spec, const std::string& column);

} // namespace gradstep::data
