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
#include <mutex>
#include <string>

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
// Each rank of a data-parallel run starts its lines with "[rank k] ": the ranks share the
// launcher's terminal, and a line must say whose it is. Whole lines only go out (mpirun forwards
// what each rank writes as it comes, so two ranks' half lines would interleave); a partial line
// waits for its end or for finishOutputLines.
struct LinePrefix {
    std::mutex mutex;
    std::string text;
    std::string pendingOut;
    std::string pendingErr;
};

LinePrefix& linePrefix()
{
    static LinePrefix prefix;
    return prefix;
}

void writeRaw(std::FILE* stream, std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fflush(stream);
}

void writeTo(std::FILE* stream, std::string_view text, std::string LinePrefix::*pending)
{
    LinePrefix& prefix = linePrefix();
    std::lock_guard lock(prefix.mutex);
    if (prefix.text.empty())
        return writeRaw(stream, text);
    std::string out;
    std::string& partial = prefix.*pending;
    for (char c : text) {
        partial += c;
        if (c == '\n') {
            out += prefix.text + partial;
            partial.clear();
        }
    }
    if (!out.empty())
        writeRaw(stream, out);
}
} // namespace

void setOutputPrefix(std::string prefix)
{
    std::lock_guard lock(linePrefix().mutex);
    linePrefix().text = std::move(prefix);
}

void finishOutputLines()
{
    LinePrefix& prefix = linePrefix();
    std::lock_guard lock(prefix.mutex);
    if (!prefix.pendingOut.empty())
        writeRaw(stdout, prefix.text + prefix.pendingOut + "\n");
    if (!prefix.pendingErr.empty())
        writeRaw(stderr, prefix.text + prefix.pendingErr + "\n");
    prefix.pendingOut.clear();
    prefix.pendingErr.clear();
}

void writeOut(std::string_view text) { writeTo(stdout, text, &LinePrefix::pendingOut); }
void writeErr(std::string_view text) { writeTo(stderr, text, &LinePrefix::pendingErr); }

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
