// Shared pieces of the headless commands. SPDX-License-Identifier: MIT
#include "app/cli_common.h"

#include "python/host/host.h"
#include "python/host/script_runner.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>

namespace gradstep::app {

bool parseWholeNumber(std::string_view text, long long max, long long& value)
{
    if (text.empty() || text.size() > 19)
        return false;
    unsigned long long parsed = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        parsed = parsed * 10 + static_cast<unsigned long long>(c - '0');
    }
    if (parsed > static_cast<unsigned long long>(max))
        return false;
    value = static_cast<long long>(parsed);
    return true;
}

bool parseSeconds(const char* text, double& seconds)
{
    char* end = nullptr;
    seconds = std::strtod(text, &end);
    return end != text && *end == '\0' && seconds > 0.0 && seconds < 1e9;
}

namespace {
void writeTo(std::FILE* stream, std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fflush(stream);
}
} // namespace

void writeOut(std::string_view text) { writeTo(stdout, text); }
void writeErr(std::string_view text) { writeTo(stderr, text); }

bool writeAtomically(const std::string& path, std::string_view text, const char* command)
{
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            std::fprintf(stderr, "gradstep %s: cannot write %s\n", command, temporary.c_str());
            return false;
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::fprintf(stderr, "gradstep %s: cannot write %s: %s\n", command, path.c_str(), error.message().c_str());
        std::filesystem::remove(temporary, error);
        return false;
    }
    return true;
}

bool startPython(const char* command)
{
    try {
        python::Host::start();
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep %s: %s\n", command, e.what());
        return false;
    }
}

python::RunResult waitWatchingCtrlC(python::ScriptRunner& runner, bool* interrupted)
{
    bool stopped = false;
    for (;;) {
        if (auto result = runner.waitFor(std::chrono::milliseconds(100)))
            return *result;
        if (!stopped && python::Host::interruptCount() > 0) {
            runner.stop();
            stopped = true;
            if (interrupted)
                *interrupted = true;
        }
    }
}

void endWithoutPython(int status)
{
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status);
}

} // namespace gradstep::app
