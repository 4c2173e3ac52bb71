// Graph mode against PyNative and PyTorch from Python: LeNet5 (batch 32) and an MLP
// 784-256-128-10 (batch 64) training steps (value_and_grad over the network's parameters + SGD),
// the same script run with the mode override set to PyNative and then to Graph, the time to
// compile LeNet5's training step (source -> forward + backward graph -> passes), LeNet5's whole
// step compiled by @ms.jit (forward, backward and a Momentum update in one graph), graph mode again
// on one thread (set_context(inter_op_parallel_num=1): no independent nodes at once), and the same two
// models on PyTorch (python3-torch, /usr/bin/python3, one thread and OpenBLAS like gradstep, as
// ../shared/bench/torch_anchor.py measures it) when it is installed. Prints the load average
// before and after: the machine is shared. SPDX-License-Identifier: MIT
#include "python/host/host.h"
#include "python/host/script_runner.h"
#include "tests/bench/lenet5_cell.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using namespace gradstep;

namespace {

// Timing shared by the gradstep and the PyTorch scripts.
constexpr const char* kTiming = R"PY(
import sys, time
import numpy as np

mode = sys.argv[1]

def measure(name, fn, min_seconds=2.0, min_samples=15):
    fn()
    samples = []
    start = time.perf_counter()
    while len(samples) < min_samples or time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    samples.sort()
    print(f"{mode:8s} {name:36s} median {samples[len(samples) // 2]:8.3f} ms   "
          f"min {samples[0]:8.3f} ms", flush=True)

)PY";

constexpr const char* kMindSpore = R"PY(
import mindspore as ms
from mindspore import Tensor, nn
from mindspore.common.initializer import Normal
)PY";

constexpr const char* kTrain = R"PY(
class Mlp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 256)
        self.fc2 = nn.Dense(256, 128)
        self.fc3 = nn.Dense(128, 10)
        self.relu = nn.ReLU()
    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

def trainer(net, shape, batch):
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
    def forward(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
    x = Tensor(np.cos(0.13 * np.arange(np.prod(shape))).reshape(shape).astype(np.float32))
    y = Tensor((np.arange(batch) % 10).astype(np.int32))
    def step():
        loss, grads = grad_fn(x, y)
        opt(grads)
    return step

# Issue 16: the whole step in one compiled graph (forward, backward, Momentum update) by @ms.jit.
def jit_trainer(net, shape, batch):
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    def forward(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    x = Tensor(np.cos(0.13 * np.arange(np.prod(shape))).reshape(shape).astype(np.float32))
    y = Tensor((np.arange(batch) % 10).astype(np.int32))
    return lambda: train_step(x, y)

if mode == "graph-1t": # graph mode without inter-op parallelism: every node on one thread
    ms.set_context(inter_op_parallel_num=1)
ms.set_seed(0)
lenet_step = trainer(LeNet5(), (32, 1, 32, 32), 32)
t0 = time.perf_counter()
lenet_step()
first = (time.perf_counter() - t0) * 1e3
if mode == "graph":
    print(f"graph    LeNet5 training step compile            {ms._jit_stats()['last_compile_ms']:8.3f} ms"
          f"   (first step {first:.3f} ms)")
measure("LeNet5 batch 32 training step", lenet_step)
jit_step = jit_trainer(LeNet5(), (32, 1, 32, 32), 32)
jit_step()
if mode != "pynative":
    assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
measure("LeNet5 b32 @jit step (+Momentum)", jit_step)
measure("MLP 784-256-128-10 batch 64 step", trainer(Mlp(), (64, 784), 64))
)PY";

// The same models and steps on PyTorch: LeNet5 as MindSpore's (convolutions without bias, valid
// padding), cross entropy with mean reduction, SGD(lr=0.01).
constexpr const char* kTorch = R"PY(
import torch
torch.set_num_threads(1)

)PY";

// After kTorchLeNet5.
constexpr const char* kTorchAfterLeNet5 = R"PY(

class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(784, 256)
        self.fc2 = torch.nn.Linear(256, 128)
        self.fc3 = torch.nn.Linear(128, 10)
    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

def trainer(net, shape, batch):
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x = torch.from_numpy(np.cos(0.13 * np.arange(np.prod(shape))).reshape(shape).astype(np.float32))
    y = torch.from_numpy((np.arange(batch) % 10).astype(np.int64))
    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    return step

print(f"pytorch  PyTorch {torch.__version__}, {torch.get_num_threads()} thread", flush=True)
torch.manual_seed(0)
measure("LeNet5 batch 32 training step", trainer(LeNet5(), (32, 1, 32, 32), 32))
measure("MLP 784-256-128-10 batch 64 step", trainer(Mlp(), (64, 784), 64))
)PY";

void printLoad(const char* when)
{
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    std::cout << "load average " << when << ": " << one << " " << five << " " << fifteen << "\n";
}

void runTorch(const std::filesystem::path& script)
{
    if (std::system("/usr/bin/python3 -c 'import torch' 2>/dev/null") != 0) {
        std::cout << "pytorch  not installed (bash ../shared/bench/install_deps.sh adds it)\n";
        return;
    }
    std::cout << std::flush;
    const std::string command = "OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "
                                "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread "
                                "/usr/bin/python3 "
                                + script.string() + " pytorch";
    if (std::system(command.c_str()) != 0)
        std::cout << "pytorch  the comparison script failed\n";
}

bool runScript(const std::filesystem::path& path, run::ModeOverride mode, const char* name)
{
    python::ScriptRunner runner;
    python::RunRequest request;
    request.script = path;
    request.args = {name};
    request.overrides.mode = mode;
    request.output = [](run::OutputStream, std::string_view text) { std::cout << text << std::flush; };
    const python::RunResult result = runner.run(request);
    if (result.status != python::RunStatus::Ok && result.diagnostic)
        std::cout << result.diagnostic->format() << "\n";
    return result.status == python::RunStatus::Ok;
}

} // namespace

int main()
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gradstep_graph_bench";
    std::filesystem::create_directories(dir);
    const std::filesystem::path script = dir / "graph_bench.py";
    const std::filesystem::path torch = dir / "torch_bench.py";
    std::ofstream(script) << kTiming << kMindSpore << bench::kLeNet5Cell << kTrain;
    std::ofstream(torch) << kTiming << kTorch << bench::kTorchLeNet5 << kTorchAfterLeNet5;
    printLoad("before");
    python::Host::start();
    const bool ok = runScript(script, run::ModeOverride::PyNative, "pynative")
                    && runScript(script, run::ModeOverride::Graph, "graph")
                    && runScript(script, run::ModeOverride::Graph, "graph-1t");
    python::Host::shutdown();
    runTorch(torch);
    printLoad("after");
    std::filesystem::remove_all(dir);
    return ok ? 0 : 1;
}
