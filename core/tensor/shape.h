// A tensor shape: up to kMaxRank dimensions held inline, so copying one never allocates.
// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gradstep {

class Shape {
public:
    static constexpr int kMaxRank = 8;

    Shape() = default;
    Shape(std::initializer_list<std::int64_t> dims);
    explicit Shape(std::span<const std::int64_t> dims);
    explicit Shape(const std::vector<std::int64_t>& dims) : Shape(std::span<const std::int64_t>(dims)) {}

    int rank() const { return m_rank; }
    std::int64_t operator[](int axis) const { return m_dims[static_cast<std::size_t>(axis)]; }
    std::int64_t& operator[](int axis) { return m_dims[static_cast<std::size_t>(axis)]; }
    std::int64_t numel() const;
    std::span<const std::int64_t> dims() const { return {m_dims.data(), static_cast<std::size_t>(m_rank)}; }
    std::vector<std::int64_t> toVector() const { return {dims().begin(), dims().end()}; }
    const std::int64_t* begin() const { return m_dims.data(); }
    const std::int64_t* end() const { return m_dims.data() + m_rank; }

    void push_back(std::int64_t dim);
    /// "[2, 3]" as MindSpore prints shapes.
    std::string toString() const;

    friend bool operator==(const Shape& a, const Shape& b);

private:
    std::array<std::int64_t, kMaxRank> m_dims{};
    int m_rank = 0;
};

/// Row-major strides in elements.
std::array<std::int64_t, Shape::kMaxRank> contiguousStrides(const Shape& shape);
/// NumPy broadcasting of two shapes; throws ShapeError naming `op` when they do not broadcast.
Shape broadcastShapes(const Shape& a, const Shape& b, std::string_view op);
/// Normalises a possibly negative axis for a tensor of `rank`; throws ValueError naming `op`.
int normalizeAxis(std::int64_t axis, int rank, std::string_view op);

} // namespace gradstep
