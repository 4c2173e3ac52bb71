// Tensor storage. SPDX-License-Identifier: MIT
#include "tensor/storage.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <unordered_map>
#include <vector>

namespace gradstep {

namespace {
constexpr std::size_t kAlignment = 64;

// Note [Storage cache]: a training step frees and re-allocates the same large buffers every
// step. glibc serves blocks above its mmap threshold with fresh mappings, so each step paid
// page faults on every large tensor (~20 % of a LeNet5 step's median here). Freed blocks of 4 KiB
// and more are kept per thread, by exact size, up to 64 MiB, and reused. Sanitizer builds skip
// the cache so that use-after-free stays visible.
#ifndef GRADSTEP_NO_STORAGE_CACHE
class BlockCache {
public:
    static constexpr std::size_t kMinBytes = 4096;
    static constexpr std::size_t kCapacity = std::size_t{64} << 20;

    ~BlockCache()
    {
        for (auto& [bytes, blocks] : m_free)
            for (void* p : blocks)
                std::free(p);
    }
    void* take(std::size_t bytes)
    {
        auto it = m_free.find(bytes);
        if (it == m_free.end() || it->second.empty())
            return nullptr;
        void* p = it->second.back();
        it->second.pop_back();
        m_cached -= bytes;
        return p;
    }
    bool put(void* p, std::size_t bytes)
    {
        if (bytes < kMinBytes || m_cached + bytes > kCapacity)
            return false;
        m_free[bytes].push_back(p);
        m_cached += bytes;
        return true;
    }

private:
    std::unordered_map<std::size_t, std::vector<void*>> m_free;
    std::size_t m_cached = 0;
};

// Trivially destructible, so it stays readable after the cache itself is destroyed at thread exit.
thread_local bool t_cacheGone = false;

struct CacheHolder {
    BlockCache cache;
    ~CacheHolder() { t_cacheGone = true; }
};

BlockCache* threadCache()
{
    if (t_cacheGone)
        return nullptr;
    thread_local CacheHolder holder;
    return &holder.cache;
}
#endif

std::size_t roundedBytes(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

// Note [Pages of their own]
// glibc raises its mmap threshold to the size of each mapped block freed (up to 32 MiB), so after
// the first step a training step's large buffers come from the heap. Under the debugger, snapshot
// copies that live for the whole step sit between buffers freed after each node: the heap cannot
// shrink below them and the gaps they leave rarely fit the next step's sizes, so the resident size
// grew by hundreds of MiB per step although the snapshots stayed under the recording cap (measured
// flat with MALLOC_MMAP_THRESHOLD_ fixed). Long-lived copies of this size therefore get pages of
// their own, mapped and unmapped directly. Below kOwnPagesFrom the heap serves them: small blocks
// fragment little and a mapping each would cost more than the copy.
constexpr std::size_t kOwnPagesFrom = std::size_t{256} << 10;
} // namespace

Storage::Storage(std::size_t bytes, StoragePages pages) : m_bytes(bytes)
{
    if (bytes <= kInlineBytes) {
        m_data = m_inline;
        std::memset(m_inline, 0, kInlineBytes);
        return;
    }
    const std::size_t rounded = roundedBytes(bytes);
    if (pages == StoragePages::Own && rounded >= kOwnPagesFrom) {
        // Populated at once: one call instead of a page fault per page of the copy that follows.
        void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        m_data = p;
        m_mapped = true;
        return;
    }
#ifndef GRADSTEP_NO_STORAGE_CACHE
    if (BlockCache* cache = threadCache())
        if ((m_data = cache->take(rounded)))
            return;
#endif
    m_data = std::aligned_alloc(kAlignment, rounded);
    if (!m_data)
        throw std::bad_alloc();
}

Storage::~Storage()
{
    if (m_data == m_inline)
        return;
    if (m_mapped) {
        munmap(m_data, roundedBytes(m_bytes));
        return;
    }
#ifndef GRADSTEP_NO_STORAGE_CACHE
    if (BlockCache* cache = threadCache())
        if (cache->put(m_data, roundedBytes(m_bytes)))
            return;
#endif
    std::free(m_data);
}

} // namespace gradstep
