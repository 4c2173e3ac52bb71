// Argument types shared by the conv and pooling layers: an int or a pair of ints (kernel_size,
// stride, dilation), and an int or four ints (padding). SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep {

/// MindSpore's `int or tuple[int, int]`: Conv2d(1, 6, 5) and Conv2d(1, 6, {5, 3}) both work.
struct IntPair {
    IntPair(std::int64_t both) : first(both), second(both) {}
    IntPair(std::int64_t height, std::int64_t width) : first(height), second(width) {}

    std::vector<std::int64_t> toVector() const { return {first, second}; }
    /// "(5, 5)" as MindSpore prints tuples.
    std::string toString() const
    {
        return "(" + std::to_string(first) + ", " + std::to_string(second) + ")";
    }

    std::int64_t first;
    std::int64_t second;
};

/// MindSpore's padding: one int for every side or (top, bottom, left, right).
struct Padding4 {
    Padding4(std::int64_t all) : values{all, all, all, all} {}
    Padding4(std::int64_t top, std::int64_t bottom, std::int64_t left, std::int64_t right)
        : values{top, bottom, left, right}
    {}

    bool isZero() const
    {
        return values[0] == 0 && values[1] == 0 && values[2] == 0 && values[3] == 0;
    }

    std::vector<std::int64_t> values;
};

} // namespace gradstep
