// Tests of the inter-op worker pool (core/graph/inter_op_pool.cpp). SPDX-License-Identifier: MIT
#include "graph/inter_op_pool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace gradstep;

namespace {

// Restores the default thread count when a test ends.
struct Threads {
    explicit Threads(int n) { InterOpPool::instance().setThreads(n); }
    ~Threads() { InterOpPool::instance().setThreads(0); }
};

} // namespace

TEST_CASE("the inter-op pool runs every task exactly once, job after job")
{
    for (int threads : {1, 2, 3}) {
        const Threads set(threads);
        CHECK(InterOpPool::instance().threads() == threads);
        for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7},
                                  std::size_t{64}}) {
            for (int job = 0; job < 300; ++job) {
                std::vector<std::atomic<int>> calls(count);
                auto task = [&](std::size_t i) { calls[i].fetch_add(1); };
                InterOpPool::instance().run(count, task);
                int wrong = 0;
                for (auto& c : calls)
                    wrong += c.load() != 1;
                REQUIRE(wrong == 0);
            }
        }
    }
}

TEST_CASE("with two threads, two tasks of one job run at the same time")
{
    const Threads set(2);
    // Each task waits for the other to start: one after the other, the first would wait in vain
    // (and give up after five seconds, so a failure cannot hang the suite).
    std::atomic<int> started{0};
    std::atomic<int> sawPartner{0};
    std::set<std::thread::id> ids;
    std::mutex idsMutex;
    auto task = [&](std::size_t) {
        {
            const std::lock_guard lock(idsMutex);
            ids.insert(std::this_thread::get_id());
        }
        started.fetch_add(1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (started.load() < 2 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
        sawPartner.fetch_add(started.load() == 2 ? 1 : 0);
    };
    InterOpPool::instance().run(2, task);
    CHECK(sawPartner.load() == 2);
    CHECK(ids.size() == 2);
    CHECK(ids.count(std::this_thread::get_id()) == 1); // the caller takes part
}

TEST_CASE("with one thread, every task runs on the caller")
{
    const Threads set(1);
    std::set<std::thread::id> ids;
    auto task = [&](std::size_t) { ids.insert(std::this_thread::get_id()); };
    InterOpPool::instance().run(16, task);
    CHECK(ids == std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_CASE("a task's exception reaches the caller after every task ran, the lowest index first")
{
    const Threads set(2);
    std::atomic<int> ran{0};
    auto task = [&](std::size_t i) {
        ran.fetch_add(1);
        if (i == 3 || i == 5)
            throw std::runtime_error("task " + std::to_string(i));
    };
    try {
        InterOpPool::instance().run(8, task);
        FAIL("no exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "task 3");
    }
    CHECK(ran.load() == 8);
    // The pool still works afterwards.
    std::atomic<int> after{0};
    auto count = [&](std::size_t) { after.fetch_add(1); };
    InterOpPool::instance().run(4, count);
    CHECK(after.load() == 4);
}

TEST_CASE("a forked child runs jobs and stops its pool although the workers stayed behind")
{
    const Threads set(2);
    std::atomic<int> warm{0};
    auto count = [&](std::size_t) { warm.fetch_add(1); };
    InterOpPool::instance().run(4, count); // the parent's worker exists now
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::atomic<int> calls{0};
        auto task = [&](std::size_t) { calls.fetch_add(1); };
        InterOpPool::instance().run(8, task);
        InterOpPool::instance().setThreads(1); // stops the workers: must not wait for the parent's
        InterOpPool::instance().setThreads(2);
        InterOpPool::instance().run(8, task);
        _exit(calls.load() == 16 ? 0 : 1);
    }
    int status = -1;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            FAIL("the child hung");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
