// A tensor shape: up to kMaxRank dimensions held inline. SPDX-License-Identifier: MIT
#include "tensor/shape.h"

#include "tensor/errors.h"

namespace gradstep {

Shape::Shape(std::initializer_list<std::int64_t> dims)
{
    for (std::int64_t d : dims)
        push_back(d);
}

Shape::Shape(std::span<const std::int64_t> dims)
{
    for (std::int64_t d : dims)
        push_back(d);
}

void Shape::push_back(std::int64_t dim)
{
    if (m_rank >= kMaxRank)
        throw ShapeError("tensor rank exceeds the maximum of " + std::to_string(kMaxRank));
    if (dim < 0)
        throw ShapeError("negative dimension " + std::to_string(dim) + " in a shape");
    m_dims[static_cast<std::size_t>(m_rank++)] = dim;
}

std::int64_t Shape::numel() const
{
    // A zero anywhere makes the tensor empty even when the other dimensions' product would
    // overflow, so look for it before multiplying.
    for (int i = 0; i < m_rank; ++i)
        if (m_dims[static_cast<std::size_t>(i)] == 0)
            return 0;
    std::int64_t n = 1;
    for (int i = 0; i < m_rank; ++i)
        if (__builtin_mul_overflow(n, m_dims[static_cast<std::size_t>(i)], &n))
            throw ShapeError("shape " + toString() + " has more elements than int64 can count");
    return n;
}

std::string Shape::toString() const
{
    std::string s = "[";
    for (int i = 0; i < m_rank; ++i) {
        if (i)
            s += ", ";
        s += std::to_string(m_dims[static_cast<std::size_t>(i)]);
    }
    return s + "]";
}

bool operator==(const Shape& a, const Shape& b)
{
    if (a.m_rank != b.m_rank)
        return false;
    for (int i = 0; i < a.m_rank; ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

std::array<std::int64_t, Shape::kMaxRank> contiguousStrides(const Shape& shape)
{
    std::array<std::int64_t, Shape::kMaxRank> strides{};
    std::int64_t s = 1;
    for (int i = shape.rank() - 1; i >= 0; --i) {
        strides[static_cast<std::size_t>(i)] = s;
        s *= shape[i];
    }
    return strides;
}

Shape broadcastShapes(const Shape& a, const Shape& b, std::string_view op)
{
    if (a == b)
        return a;
    const int rank = a.rank() > b.rank() ? a.rank() : b.rank();
    Shape out;
    for (int i = 0; i < rank; ++i) {
        const int ia = a.rank() - rank + i;
        const int ib = b.rank() - rank + i;
        const std::int64_t da = ia >= 0 ? a[ia] : 1;
        const std::int64_t db = ib >= 0 ? b[ib] : 1;
        if (da != db && da != 1 && db != 1)
            throw ShapeError("for '" + std::string(op) + "', shapes " + a.toString() + " and "
                             + b.toString() + " cannot broadcast (dimension " + std::to_string(i)
                             + ": " + std::to_string(da) + " vs " + std::to_string(db) + ")");
        out.push_back(da == 1 ? db : da);
    }
    return out;
}

int normalizeAxis(std::int64_t axis, int rank, std::string_view op)
{
    const std::int64_t lo = rank == 0 ? -1 : -rank;
    const std::int64_t hi = rank == 0 ? 0 : rank - 1;
    if (axis < lo || axis > hi)
        throw ValueError("for '" + std::string(op) + "', axis " + std::to_string(axis)
                         + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi)
                         + "] for a tensor of rank " + std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + (rank == 0 ? 1 : rank) : axis);
}

} // namespace gradstep
