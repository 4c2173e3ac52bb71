// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "python/host/host.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <unistd.h>

namespace gradstep::python::test {

void ensureHost()
{
    static std::once_flag once;
    std::call_once(once, [] {
        Host::start(HostOptions{false});
        std::atexit([] { Host::shutdown(); });
    });
}

TempDir::TempDir()
{
    static std::atomic<int> counter{0};
    m_path = std::filesystem::temp_directory_path()
             / ("gradstep-python-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& text) const
{
    const auto file = m_path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
}

Outcome runFile(const std::filesystem::path& script, std::chrono::milliseconds timeout)
{
    ensureHost();
    Outcome outcome;
    RunRequest request;
    request.script = script;
    request.timeout = timeout;
    request.output = [&outcome](OutputStream stream, std::string_view text) {
        (stream == OutputStream::Stdout ? outcome.out : outcome.err) += text;
    };
    ScriptRunner runner;
    outcome.result = runner.run(std::move(request));
    return outcome;
}

Outcome runSource(const std::string& source, std::chrono::milliseconds timeout)
{
    TempDir dir;
    return runFile(dir.write("main.py", source), timeout);
}

std::string checkRuns(const std::string& source, std::chrono::milliseconds timeout)
{
    const Outcome o = runSource(source, timeout);
    INFO(o.diagnostic());
    INFO(o.err);
    CHECK(o.result.status == RunStatus::Ok);
    return o.out;
}

} // namespace gradstep::python::test

// Under AddressSanitizer: CPython and NumPy keep some allocations until the process ends by design
// (interned strings, static types, per-module state), and so does pybind11 (its internals). With
// allocation stacks cut to six frames, the suppressions below only match allocations made by those
// libraries themselves, not by gradstep code that Python happens to call.
extern "C" const char* __asan_default_options() { return "malloc_context_size=6"; }

extern "C" const char* __lsan_default_suppressions()
{
    return "leak:libpython3.11.so\n"
           "leak:_multiarray_umath\n"
           "leak:pybind11::detail::get_local_internals\n"
           "leak:pybind11::cpp_function::initialize_generic\n";
}
