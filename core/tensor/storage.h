// The bytes behind a tensor: 64-byte aligned, with a small inline buffer so that tiny tensors
// cost one allocation (the control block of make_shared) instead of two. SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace gradstep {

/// Where a storage's bytes come from. Shared: the heap (and the per-thread block cache). Own:
/// pages mapped for this storage alone and returned to the system when it dies, for copies that
/// live long beside a step's short-lived buffers (the debugger's snapshots): on the heap those
/// fragment it, and the memory they leave behind stays resident (Note [Pages of their own]).
enum class StoragePages { Shared, Own };

class Storage {
public:
    explicit Storage(std::size_t bytes, StoragePages pages = StoragePages::Shared);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    void* data() { return m_data; }
    const void* data() const { return m_data; }
    std::size_t bytes() const { return m_bytes; }

private:
    static constexpr std::size_t kInlineBytes = 32;
    alignas(16) unsigned char m_inline[kInlineBytes];
    void* m_data;
    std::size_t m_bytes;
    bool m_mapped = false;
};

} // namespace gradstep
