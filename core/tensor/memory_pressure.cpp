// SPDX-License-Identifier: MIT
#include "tensor/memory_pressure.h"

#include <map>
#include <mutex>
#include <vector>

namespace gradstep {

namespace {
struct Registry {
    std::mutex mutex;
    std::map<std::uint64_t, MemoryPressureHandler> handlers;
    std::uint64_t next = 1;
};

Registry& registry()
{
    static Registry r;
    return r;
}
} // namespace

std::uint64_t registerMemoryPressureHandler(MemoryPressureHandler handler)
{
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.handlers.emplace(r.next, std::move(handler));
    return r.next++;
}

void unregisterMemoryPressureHandler(std::uint64_t token)
{
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.handlers.erase(token);
}

bool relieveMemoryPressure()
{
    Registry& r = registry();
    // Called outside the lock: a handler takes its owner's locks, and its owner may unregister.
    std::vector<MemoryPressureHandler> handlers;
    {
        std::lock_guard lock(r.mutex);
        for (const auto& [token, handler] : r.handlers)
            handlers.push_back(handler);
    }
    bool freed = false;
    for (const MemoryPressureHandler& handler : handlers)
        freed = handler() || freed;
    return freed;
}

} // namespace gradstep
