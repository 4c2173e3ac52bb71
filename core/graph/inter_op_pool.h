// The worker threads graph mode runs independent nodes on (MindSpore's inter_op_parallel_num).
// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gradstep {

/// Note [Inter-op parallelism]: a compiled graph knows which nodes do not depend on each other
/// (a Dense layer's weight and input gradients, a convolution's filter and input gradients), so
/// its executor can run them at the same time; PyNative sees one op at a time and cannot. The
/// pool has threads() - 1 workers; the calling thread takes part in every job and takes tasks in
/// order, so a worker that is slow to wake (a loaded machine) only means the caller does more of
/// the work itself. Workers spin briefly after a job (the next group of a graph run usually
/// follows within microseconds), then sleep on a condition variable. Kernels run in a task must not touch
/// thread-local state (the execution context, the global generator); the executor only groups
/// op and fused nodes, whose kernels do not.
class InterOpPool {
public:
    /// The process-wide pool.
    static InterOpPool& instance();
    ~InterOpPool();

    /// Threads taking part in a job, the caller included; 0 picks the default (two when the
    /// machine has two or more cores, else one). Workers are started on first use.
    void setThreads(int threads);
    int threads() const { return m_threads.load(std::memory_order_relaxed); }

    /// Calls task(i) once for every i in [0, count) on the caller and the workers, and returns
    /// when all calls have returned. When tasks throw, the exception of the lowest index is
    /// rethrown after all tasks ran.
    template <class Task> void run(std::size_t count, Task& task)
    {
        runErased(count, &task, [](void* t, std::size_t i) { (*static_cast<Task*>(t))(i); });
    }

    static int defaultThreads();

private:
    using Trampoline = void (*)(void*, std::size_t);
    struct Job {
        std::size_t count = 0;
        void* task = nullptr;
        Trampoline call = nullptr;
        std::vector<std::exception_ptr> errors;
        std::atomic<std::size_t> next{0};
        std::atomic<std::size_t> done{0};
        std::atomic<int> helpers{0};
    };

    InterOpPool() = default;
    void runErased(std::size_t count, void* task, Trampoline call);
    void ensureWorkers();
    void stopWorkers();
    void workerLoop(std::uint32_t seen);
    void lockForFork();
    void unlockAfterFork(bool child);
    /// Starts a new epoch and wakes sleeping workers.
    void publish();
    static void work(Job& job);

    std::atomic<int> m_threads{defaultThreads()};
    std::mutex m_runMutex; ///< one job at a time (two graphs run from two threads take turns)
    std::mutex m_jobMutex; ///< guards m_current and m_stop against joining and leaving
    Job* m_current = nullptr;
    bool m_stop = false;
    std::atomic<std::uint32_t> m_epoch{0};
    // Sleeping uses a condition variable rather than atomic::wait, whose GCC 12 implementation
    // can miss a notification (libstdc++ PR 106772); m_sleepers lets publish() skip the lock
    // and the system call while every worker is still spinning.
    std::mutex m_sleepMutex;
    std::condition_variable m_wake;
    std::atomic<int> m_sleepers{0};
    std::vector<std::thread> m_workers;
};

} // namespace gradstep
