// gradstep entry point. SPDX-License-Identifier: MIT
#include "app/cli_run.h"
#include "ops/registry.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "run") == 0)
        return gradstep::app::runCommand(argc - 2, argv + 2);
    if (argc > 1 && std::strcmp(argv[1], "ops") == 0) {
        std::fputs(gradstep::OpRegistry::instance().dump().c_str(), stdout);
        return 0;
    }
    std::fprintf(stderr, "usage: gradstep ops\n");
    return 2;
}
