// Tensor storage. SPDX-License-Identifier: MIT
#include "tensor/storage.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace gradstep {

namespace {
constexpr std::size_t kAlignment = 64;
}

Storage::Storage(std::size_t bytes) : m_bytes(bytes)
{
    if (bytes <= kInlineBytes) {
        m_data = m_inline;
        std::memset(m_inline, 0, kInlineBytes);
        return;
    }
    const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    m_data = std::aligned_alloc(kAlignment, rounded);
    if (!m_data)
        throw std::bad_alloc();
}

Storage::~Storage()
{
    if (m_data != m_inline)
        std::free(m_data);
}

} // namespace gradstep
