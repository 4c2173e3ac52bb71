// Runs a Python script on the embedded host with no observer attached: `run_script SCRIPT [ARGS...]`.
// The scripts under tests/bench/python time the mindspore API itself; `gradstep run` would attach
// its step report, which takes every step's gradient and weight norms (a pass over each tensor)
// and prints a row per step, and that would be timed too. python_bench runs its scripts this way.
// Not named *_bench, so run_all.sh does not run it on its own. SPDX-License-Identifier: MIT
#include "python/host/host.h"
#include "python/host/script_runner.h"

#include <iostream>

using namespace gradstep;

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: run_script SCRIPT [ARGS...]\n";
        return 2;
    }
    python::Host::start();
    python::RunRequest request;
    request.script = argv[1];
    for (int i = 2; i < argc; ++i)
        request.args.emplace_back(argv[i]);
    request.output = [](run::OutputStream stream, std::string_view text) {
        (stream == run::OutputStream::Stdout ? std::cout : std::cerr) << text << std::flush;
    };
    python::RunResult result;
    {
        python::ScriptRunner runner;
        result = runner.run(std::move(request));
    }
    python::Host::shutdown();
    if (result.diagnostic && result.status != python::RunStatus::Ok)
        std::cerr << result.diagnostic->format() << '\n';
    return result.status == python::RunStatus::Ok ? 0 : 1;
}
