// The cost of the debugger: a LeNet5 training step (batch 32, SGD) written in Python, run plain,
// under a Session with full recording (stats and snapshots of every tensor), with stats only, and
// with recording off and no breakpoints. The script times its own steps, so interpreter start-up
// and imports are not counted: wall time (median, min) and the worker thread's CPU time (median),
// which is the fair figure on a shared machine where other processes preempt the worker.
// Targets (issue 5): full recording <= 2x plain, off <= 1.1x. SPDX-License-Identifier: MIT
#include "python/host/host.h"
#include "python/host/script_runner.h"
#include "session/session.h"
#include "tests/bench/lenet5_cell.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace gradstep;

namespace {

constexpr const char* kScript = R"(import time
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

)";

constexpr const char* kSteps = R"(
ms.set_seed(0)
net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
def forward_fn(data, label):
    return loss_fn(net(data), label)
grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())
x = Tensor(np.cos(0.13 * np.arange(32 * 32 * 32)).reshape(32, 1, 32, 32).astype(np.float32))
y = Tensor((np.arange(32) % 10).astype(np.int32))
wall = []
cpu = []
for step in range(STEPS):
    t0 = time.perf_counter()
    c0 = time.thread_time()
    loss, grads = grad_fn(x, y)
    opt(grads)
    cpu.append(time.thread_time() - c0)
    wall.append(time.perf_counter() - t0)
wall = sorted(wall[5:])
cpu = sorted(cpu[5:])
print(f"{wall[len(wall) // 2] * 1e3:.4f} {wall[0] * 1e3:.4f} {cpu[len(cpu) // 2] * 1e3:.4f}")
)";

struct Figures {
    double medianMs = 0;
    double minMs = 0;
    double cpuMedianMs = 0; ///< the worker thread's CPU time: what preemption by others does not inflate
};

Figures parse(const std::string& out)
{
    Figures f;
    if (std::sscanf(out.c_str(), "%lf %lf %lf", &f.medianMs, &f.minMs, &f.cpuMedianMs) != 3)
        std::fprintf(stderr, "session_bench: unexpected output: %s\n", out.c_str());
    return f;
}

Figures plain(const std::filesystem::path& script)
{
    std::string out;
    python::RunRequest request;
    request.script = script;
    request.output = [&](run::OutputStream, std::string_view text) { out += text; };
    python::ScriptRunner runner;
    const python::RunResult result = runner.run(std::move(request));
    if (result.status != python::RunStatus::Ok && result.diagnostic)
        std::fputs(result.diagnostic->format().c_str(), stderr);
    return parse(out);
}

Figures underSession(const std::filesystem::path& script, debug::Recording recording)
{
    std::string out;
    debug::SessionOptions options;
    options.script = script;
    options.recording = recording;
    options.output = [&](run::OutputStream, std::string_view text) { out += text; };
    debug::Session session(options);
    session.load(debug::RunCommand::of(debug::RunCommand::Kind::Continue));
    session.waitForPause(std::chrono::hours(1));
    const auto state = session.state();
    if (state->status != debug::SessionStatus::Finished)
        std::fprintf(stderr, "session_bench: %s\n", state->why.message.c_str());
    return parse(out);
}

void report(const char* name, const Figures& f, const Figures& base)
{
    std::printf("%-44s wall median %7.3f ms (%4.2fx)  min %7.3f ms (%4.2fx)  cpu median %7.3f ms (%4.2fx)\n",
                name, f.medianMs, f.medianMs / base.medianMs, f.minMs, f.minMs / base.minMs, f.cpuMedianMs,
                f.cpuMedianMs / base.cpuMedianMs);
}

} // namespace

/// session_bench [STEPS] [only: plain|off|stats|full]
int main(int argc, char** argv)
{
    const int steps = argc > 1 ? std::max(std::atoi(argv[1]), 10) : 100;
    const std::string only = argc > 2 ? argv[2] : "";
    const std::filesystem::path dir = std::filesystem::temp_directory_path()
                                      / ("gradstep_session_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path script = dir / "lenet5_step.py";
    std::string text = std::string(kScript) + bench::kLeNet5Cell + kSteps;
    text.replace(text.find("STEPS"), 5, std::to_string(steps));
    std::ofstream(script) << text;

    python::Host::start(python::HostOptions{false});
    std::printf("LeNet5 training step from Python, batch 32, SGD, %d steps (first 5 not counted)\n", steps);
    const Figures base = plain(script);
    report("plain (no observer)", base, base);
    if (only.empty() || only == "off")
        report("Session, recording off, no breakpoints", underSession(script, debug::Recording::Off), base);
    if (only.empty() || only == "stats")
        report("Session, stats only", underSession(script, debug::Recording::StatsOnly), base);
    if (only.empty() || only == "full")
        report("Session, full recording (stats + snapshots)", underSession(script, debug::Recording::Full), base);
    if (only.empty())
        report("plain again (drift check)", plain(script), base);
    python::Host::shutdown();
    std::filesystem::remove_all(dir);
    return 0;
}
