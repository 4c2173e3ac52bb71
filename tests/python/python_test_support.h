// Helpers for the Python tests: one interpreter per test process, scripts written to a fresh
// temporary directory and run to completion. SPDX-License-Identifier: MIT
#pragma once

#include "python/host/script_runner.h"

#include <filesystem>
#include <string>

namespace gradstep::python::test {

/// Starts the interpreter once; it is shut down when the test process exits.
void ensureHost();

/// A fresh directory under the system's temporary directory, removed with the object.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    /// Writes `text` to `name` inside the directory and returns its path.
    std::filesystem::path write(const std::string& name, const std::string& text) const;

private:
    std::filesystem::path m_path;
};

struct Outcome {
    RunResult result;
    std::string out;
    std::string err;

    bool ok() const { return result.status == RunStatus::Ok; }
    /// The diagnostic's text, or "" when the run had none (for failure messages).
    std::string diagnostic() const { return result.diagnostic ? result.diagnostic->format() : std::string(); }
};

Outcome runFile(const std::filesystem::path& script, std::chrono::milliseconds timeout = std::chrono::seconds(20));
/// Writes `source` as main.py in a new temporary directory and runs it.
Outcome runSource(const std::string& source, std::chrono::milliseconds timeout = std::chrono::seconds(20));
/// runSource, then a Catch2 check that the script ran to the end (its asserts held), with the
/// diagnostic and stderr in the failure message; returns what it printed.
std::string checkRuns(const std::string& source, std::chrono::milliseconds timeout = std::chrono::seconds(60));

} // namespace gradstep::python::test
