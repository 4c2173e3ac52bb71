// A vector that keeps up to N elements inline: op dispatch builds a few of these per call and
// must not pay an allocation for each. Contiguous either way, so it converts to a span.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

namespace gradstep {

template <class T, std::size_t N> class SmallVector {
public:
    SmallVector() = default;
    SmallVector(std::initializer_list<T> values)
    {
        for (const T& v : values)
            push_back(v);
    }

    void push_back(T value)
    {
        if (!m_heap.empty() || m_size == N) {
            if (m_heap.empty())
                for (std::size_t i = 0; i < m_size; ++i)
                    m_heap.push_back(std::move(m_inline[i]));
            m_heap.push_back(std::move(value));
        } else {
            m_inline[m_size] = std::move(value);
        }
        ++m_size;
    }
    /// Drops the elements (inline ones are reset, so no reference outlives the clear).
    void clear()
    {
        for (T& v : m_inline)
            v = T{};
        m_heap.clear();
        m_size = 0;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T* data() { return m_heap.empty() ? m_inline : m_heap.data(); }
    const T* data() const { return m_heap.empty() ? m_inline : m_heap.data(); }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    T* begin() { return data(); }
    T* end() { return data() + m_size; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + m_size; }
    std::span<T> span() { return {data(), m_size}; }
    std::span<const T> span() const { return {data(), m_size}; }

private:
    T m_inline[N]{};
    std::vector<T> m_heap;
    std::size_t m_size = 0;
};

} // namespace gradstep
