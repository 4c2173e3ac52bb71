// SPDX-License-Identifier: MIT
#include "io/spawn_with_output.h"

#include <fcntl.h>
#include <spawn.h>

extern char** environ;

namespace gradstep {

int spawnWithOutput(std::vector<std::string> args, const std::filesystem::path& output, pid_t& pid, ChildInput input)
{
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (input == ChildInput::Nothing)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

} // namespace gradstep
