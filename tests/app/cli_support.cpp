// Running the binary for the command-line tests. SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace gradstep::test {

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

std::string shellQuote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::filesystem::path sourcePath(const std::string& relative)
{
    return std::filesystem::path(GRADSTEP_SOURCE_DIR) / relative;
}

CommandResult runGradstep(const std::string& args)
{
    ScratchDir scratch;
    const auto out = scratch.file("stdout");
    const auto err = scratch.file("stderr");
    const std::string command = "cd " + shellQuote(GRADSTEP_SOURCE_DIR) + " && " + shellQuote(GRADSTEP_BINARY) + " "
                                + args + " >" + shellQuote(out.string()) + " 2>" + shellQuote(err.string());
    const int raw = std::system(command.c_str());
    CommandResult result;
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    result.out = readFile(out);
    result.err = readFile(err);
    return result;
}

ScratchDir::ScratchDir()
{
    std::random_device random;
    m_path = std::filesystem::temp_directory_path() / ("gradstep_cli_" + std::to_string(random()));
    std::filesystem::create_directories(m_path);
}

ScratchDir::~ScratchDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::filesystem::path ScratchDir::write(const std::string& name, const std::string& text) const
{
    const auto path = file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace gradstep::test
