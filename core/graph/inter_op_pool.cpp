// The inter-op worker pool (see Note [Inter-op parallelism]). SPDX-License-Identifier: MIT
#include "graph/inter_op_pool.h"

#include <algorithm>
#include <chrono>
#include <new>

#include <pthread.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GRADSTEP_PAUSE() _mm_pause()
#else
#define GRADSTEP_PAUSE() std::this_thread::yield()
#endif

namespace gradstep {

namespace {

// How long a worker keeps polling for the next job before it sleeps: long enough to bridge the
// gap between two parallel groups of one graph run, short enough not to hold a core between runs.
constexpr auto kSpin = std::chrono::microseconds(2000);

} // namespace

InterOpPool& InterOpPool::instance()
{
    static InterOpPool pool;
    static const bool registered = [] {
        // A fork copies only the forking thread: the child must neither inherit a mutex a worker
        // held nor wait for workers it does not have (Python's multiprocessing forks).
        pthread_atfork([] { pool.lockForFork(); }, [] { pool.unlockAfterFork(false); },
                       [] { pool.unlockAfterFork(true); });
        return true;
    }();
    (void)registered;
    return pool;
}

void InterOpPool::lockForFork()
{
    m_runMutex.lock();
    m_jobMutex.lock();
    m_sleepMutex.lock();
}

void InterOpPool::unlockAfterFork(bool child)
{
    if (child) {
        // The workers' threads do not exist here; their std::thread handles are let go unjoined
        // (detaching marks the copied descriptors only), and new workers start on demand.
        for (std::thread& t : m_workers)
            t.detach();
        m_workers.clear();
        m_sleepers.store(0);
        // The condition variable still counts the parent's sleeping workers as waiters, and
        // glibc's notify waits for an old group of waiters to leave before it switches groups:
        // with waiters that do not exist here, the child's first notify_all would never return.
        // A fresh one (its old state is only bytes here: nothing to destroy) has no waiters.
        ::new (static_cast<void*>(&m_wake)) std::condition_variable();
    }
    m_sleepMutex.unlock();
    m_jobMutex.unlock();
    m_runMutex.unlock();
}

InterOpPool::~InterOpPool() { stopWorkers(); }

int InterOpPool::defaultThreads()
{
    return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

void InterOpPool::setThreads(int threads)
{
    const int wanted = threads > 0 ? threads : defaultThreads();
    const std::lock_guard run(m_runMutex);
    if (wanted == m_threads.load())
        return;
    stopWorkers();
    m_threads.store(wanted);
}

void InterOpPool::ensureWorkers()
{
    const auto wanted = static_cast<std::size_t>(m_threads.load() - 1);
    if (m_workers.size() == wanted)
        return;
    {
        const std::lock_guard lock(m_jobMutex);
        m_stop = false;
    }
    // The epoch is read here, not when the thread starts: a thread that starts late (after a stop
    // was published) must still see that epoch as new, or it would sleep through the stop.
    const std::uint32_t epoch = m_epoch.load();
    while (m_workers.size() < wanted)
        m_workers.emplace_back([this, epoch] { workerLoop(epoch); });
}

void InterOpPool::stopWorkers()
{
    {
        const std::lock_guard lock(m_jobMutex);
        m_stop = true;
    }
    publish();
    for (std::thread& t : m_workers)
        t.join();
    m_workers.clear();
}

void InterOpPool::publish()
{
    // Sequentially consistent with the worker's m_sleepers increment and epoch check: either the
    // worker sees the new epoch before sleeping or this sees it asleep and wakes it.
    m_epoch.fetch_add(1);
    if (m_sleepers.load() > 0) {
        const std::lock_guard lock(m_sleepMutex);
        m_wake.notify_all();
    }
}

void InterOpPool::work(Job& job)
{
    for (;;) {
        const std::size_t i = job.next.fetch_add(1, std::memory_order_relaxed);
        if (i >= job.count)
            return;
        try {
            job.call(job.task, i);
        } catch (...) {
            job.errors[i] = std::current_exception();
        }
        job.done.fetch_add(1, std::memory_order_release);
    }
}

void InterOpPool::workerLoop(std::uint32_t seen)
{
    for (;;) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        std::uint32_t now = seen;
        for (int polls = 0; (now = m_epoch.load(std::memory_order_acquire)) == seen; ++polls) {
            GRADSTEP_PAUSE();
            if ((polls & 63) == 63 && std::chrono::steady_clock::now() > until) {
                std::unique_lock lock(m_sleepMutex);
                m_sleepers.fetch_add(1);
                m_wake.wait(lock, [&] { return m_epoch.load() != seen; });
                m_sleepers.fetch_sub(1);
                now = m_epoch.load();
                break;
            }
        }
        seen = now;
        Job* job = nullptr;
        {
            const std::lock_guard lock(m_jobMutex);
            if (m_stop)
                return;
            job = m_current;
            if (job)
                job->helpers.fetch_add(1, std::memory_order_relaxed);
        }
        if (!job)
            continue;
        work(*job);
        job->helpers.fetch_sub(1, std::memory_order_release);
    }
}

void InterOpPool::runErased(std::size_t count, void* task, Trampoline call)
{
    const std::lock_guard run(m_runMutex);
    Job job;
    job.count = count;
    job.task = task;
    job.call = call;
    job.errors.resize(count);
    if (m_threads.load() > 1 && count > 1) {
        ensureWorkers();
        {
            const std::lock_guard lock(m_jobMutex);
            m_current = &job;
        }
        publish();
    }
    work(job);
    while (job.done.load(std::memory_order_acquire) < count)
        GRADSTEP_PAUSE();
    {
        // After this no worker can join; the ones that joined leave once `next` runs out.
        const std::lock_guard lock(m_jobMutex);
        m_current = nullptr;
    }
    while (job.helpers.load(std::memory_order_acquire) != 0)
        GRADSTEP_PAUSE();
    for (std::exception_ptr& error : job.errors)
        if (error)
            std::rethrow_exception(error);
}

} // namespace gradstep
