// gradstep entry point: dispatches the headless subcommands. SPDX-License-Identifier: MIT
#include "app/cli_compare.h"
#include "app/cli_debug.h"
#include "app/cli_export.h"
#include "app/cli_migrate.h"
#ifdef GRADSTEP_HAVE_WINDOW
#include "app/cli_gui.h"
#endif
#include "app/cli_run.h"
#include "app/demo.h"
#include "app/rank_launcher.h"
#include "gradstep_version.h"
#include "ops/registry.h"

#include <cstdio>
#include <cstring>
#include <exception>

namespace {
const char* kUsage = "usage: gradstep <command> [options]\n"
                     "       gradstep --help | --version\n"
                     "commands:\n"
                     "  demo     train LeNet5 on the shipped handwritten digits and print the report\n"
#ifdef GRADSTEP_HAVE_WINDOW
                     "  gui      the debugger window (graph, source, tensors, gradients, charts)\n"
#endif
                     "  run      run a MindSpore-style Python script headless\n"
                     "  debug    run a script until a breakpoint, watchpoint or NaN; say where and why\n"
                     "  compare  a script's first training step under two settings, side by side\n"
                     "  export   draw the graph of a script's first training step (svg, png, pdf, dot)\n"
                     "  migrate  a PyTorch script and its MindSpore port, compared layer by layer\n"
                     "  ops      list the op registry (name, label, kind, arity, differentiable,\n"
                     "           vmap: batched by a rule or run per element, jvp: tangents pushed by\n"
                     "           a forward-mode rule, by the op's double vjp, or none)\n"
                     "options:\n"
                     "  -h, --help  print this help and exit\n"
                     "  --version   print the version and exit\n"
                     "Run `gradstep <command> --help` for a command's options.\n";
}

int main(int argc, char** argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) {
        std::fputs("gradstep " GRADSTEP_VERSION "\n", stdout);
        return 0;
    }
    try {
        if (std::strcmp(argv[1], "run") == 0)
            return gradstep::app::runCommand(argc - 2, argv + 2);
        if (std::strcmp(argv[1], "debug") == 0)
            return gradstep::app::debugCommand(argc - 2, argv + 2);
#ifdef GRADSTEP_HAVE_WINDOW
        if (std::strcmp(argv[1], "gui") == 0)
            return gradstep::app::guiCommand(argc - 2, argv + 2);
#endif
        if (std::strcmp(argv[1], "compare") == 0)
            return gradstep::app::compareCommand(argc - 2, argv + 2);
        if (std::strcmp(argv[1], "migrate") == 0)
            return gradstep::app::migrateCommand(argc - 2, argv + 2);
        if (std::strcmp(argv[1], "export") == 0)
            return gradstep::app::exportCommand(argc - 2, argv + 2);
        if (std::strcmp(argv[1], "ops") == 0) {
            std::fputs(gradstep::OpRegistry::instance().dump().c_str(), stdout);
            return 0;
        }
        if (std::strcmp(argv[1], "demo") == 0)
            return gradstep::runDemo(argc - 2, argv + 2);
        // Internal, not listed: MPI rank 0 of the window's Ranks (Note [rank 0 in the window]).
        if (std::strcmp(argv[1], "rank-relay") == 0)
            return gradstep::app::relayRank();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gradstep: error: %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "gradstep: unknown command '%s'\n%s", argv[1], kUsage);
    return 2;
}
