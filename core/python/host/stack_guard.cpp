// Note [The stack guard]
// CPython 3.11 counts recursion against sys.getrecursionlimit(), not against the C stack: a
// Python function that recurses through C++ (Cell.__call__ -> construct -> Cell.__call__ ...)
// spends a few kilobytes of C stack per level in pybind11, the interpreter and gradstep, so a
// script that raises the limit (sys.setrecursionlimit(20000)) overflows the stack and dies before
// Python's own check fires. The entry points that Python can re-enter without bound check the
// stack left on the calling thread (its bounds from pthread_getattr_np, once per thread) and raise
// Python's RecursionError while a margin is still free for unwinding and for diagnostics.
// SPDX-License-Identifier: MIT
#include "python/host/stack_guard.h"

#include <pybind11/pybind11.h>

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// What must stay free below the deepest guarded call: unwinding, formatting the diagnostic
/// and the user's except blocks all run on this stack.
constexpr std::size_t kMargin = 512 * 1024;

/// The lowest usable address of this thread's stack (stacks grow down on the platforms we build
/// for), or 0 when unknown.
std::uintptr_t stackLimit()
{
    thread_local const std::uintptr_t limit = [] {
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0)
            return std::uintptr_t{0};
        void* base = nullptr;
        std::size_t size = 0;
        const bool ok = pthread_attr_getstack(&attr, &base, &size) == 0;
        pthread_attr_destroy(&attr);
        return ok && size > 2 * kMargin ? reinterpret_cast<std::uintptr_t>(base) + kMargin : std::uintptr_t{0};
    }();
    return limit;
}

} // namespace

void checkStackDepth(const char* what)
{
    const std::uintptr_t limit = stackLimit();
    // The frame's address, not a local's: under AddressSanitizer locals may live on a fake stack.
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    if (limit == 0 || here > limit)
        return;
    PyErr_SetString(PyExc_RecursionError,
                    (std::string("maximum recursion depth exceeded while calling ") + what
                     + " (the thread's stack is nearly used up)")
                        .c_str());
    throw py::error_already_set();
}

std::thread startScriptThread(std::function<void()> fn)
{
    // std::thread takes no attributes, so the process-wide default is raised around its creation
    // (serialised, and put back at once: other threads keep the usual size).
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    pthread_attr_t saved;
    pthread_attr_t wanted;
    const bool changed = pthread_getattr_default_np(&saved) == 0 && pthread_attr_init(&wanted) == 0
                         && pthread_attr_setstacksize(&wanted, kScriptThreadStack) == 0
                         && pthread_setattr_default_np(&wanted) == 0;
    std::thread thread;
    try {
        thread = std::thread(std::move(fn));
    } catch (...) {
        if (changed)
            pthread_setattr_default_np(&saved);
        throw;
    }
    if (changed)
        pthread_setattr_default_np(&saved);
    return thread;
}

} // namespace gradstep::python
