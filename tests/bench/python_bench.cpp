// Python-side speed: 100,000 one-element `z = x + y` from a script, and LeNet5 training steps
// driven from Python (nn Cells + value_and_grad + SGD) against the same step in C++ directly.
// With python3-torch installed, the same Python loops run on PyTorch in a separate interpreter.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "optim/sgd.h"
#include "python/host/host.h"
#include "python/host/script_runner.h"
#include "random/generator.h"
#include "tests/bench/lenet5_cell.h"
#include "tests/bench/timing.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using namespace gradstep;
using namespace gradstep::bench;

namespace {

// Timing in the script itself: the median and minimum of samples of `inner` calls, as timing.h.
constexpr const char* kTiming = R"PY(
import time, statistics
def measure(name, fn, inner, per=1, min_seconds=2.0, min_samples=15):
    fn()
    samples = []
    start = time.perf_counter()
    while len(samples) < min_samples or time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / (inner * per) * 1e6)
    samples.sort()
    print(f"{name:52s} median {samples[len(samples) // 2]:10.3f} us   min {samples[0]:10.3f} us", flush=True)
import numpy as np
def wave(shape):
    n = int(np.prod(shape))
    return np.cos(0.13 * np.arange(n)).reshape(shape).astype(np.float32)
def labels(n):
    return (np.arange(n) % 10).astype(np.int32)
)PY";

constexpr const char* kGradstep = R"PY(
import mindspore as ms
from mindspore import Tensor, nn
from mindspore.common.initializer import Normal
x = Tensor(np.ones(1, np.float32)); y = Tensor(np.ones(1, np.float32))
def empty_loop():
    for _ in range(100_000):
        pass
def adds():
    for _ in range(100_000):
        z = x + y
measure("python: empty loop, per iteration", empty_loop, 1, 100_000)
measure("python: z = x + y, 1-element float32 (gradstep)", adds, 1, 100_000)
)PY";

constexpr const char* kGradstepSteps = R"PY(
ms.set_seed(0)
net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)
def forward_fn(data, label):
    return loss_fn(net(data), label)
grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())
data, label = Tensor(wave((32, 1, 32, 32))), Tensor(labels(32))
def step():
    loss, grads = grad_fn(data, label)
    optimizer(grads)
measure("python: LeNet5 b32 step (gradstep)", step, 3)
)PY";

constexpr const char* kTorch = R"PY(
import torch
torch.set_num_threads(1)
x = torch.ones(1); y = torch.ones(1)
def adds():
    for _ in range(100_000):
        z = x + y
measure("python: z = x + y, 1-element float32 (PyTorch " + torch.__version__ + ")", adds, 1, 100_000)
)PY";

// After kTorchLeNet5.
constexpr const char* kTorchAfterLeNet5 = R"PY(
net = LeNet5()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
data, label = torch.from_numpy(wave((32, 1, 32, 32))), torch.from_numpy(labels(32)).long()
def step():
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(data), label)
    loss.backward()
    optimizer.step()
measure("python: LeNet5 b32 step (PyTorch)", step, 3)
)PY";

Tensor wave(const Shape& shape)
{
    Tensor t = Tensor::empty(shape);
    float* p = t.data<float>();
    for (std::int64_t i = 0; i < t.numel(); ++i)
        p[i] = static_cast<float>(std::cos(0.13 * static_cast<double>(i)));
    return t;
}

void cppLeNetStep()
{
    setSeed(0);
    auto net = std::make_shared<LeNet5>();
    auto loss = std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean");
    const ParameterTuple params = net->trainableParams();
    SGD optimizer(params, 0.01);
    Function forward = [&](const std::vector<Value>& a) -> Value {
        return (*loss)(std::vector<Value>{(*net)(std::vector<Value>{a[0]}), a[1]});
    };
    GradFunction step = valueAndGrad(forward, GradPosition{}, params);
    std::vector<std::int32_t> labels(32);
    for (std::size_t i = 0; i < labels.size(); ++i)
        labels[i] = static_cast<std::int32_t>(i % 10);
    const Tensor x = wave(Shape{32, 1, 32, 32});
    const Tensor y = Tensor::fromVector<std::int32_t>(Shape{32}, labels);
    report("C++:    LeNet5 b32 step (gradstep, same Cells)", measure([&] { optimizer(step({x, y})[1].leaves()); }, 3, 2.0));
}

bool runScript(const std::filesystem::path& path)
{
    python::ScriptRunner runner;
    python::RunRequest request;
    request.script = path;
    request.output = [](run::OutputStream, std::string_view text) { std::cout << text << std::flush; };
    const python::RunResult result = runner.run(request);
    if (result.diagnostic)
        std::cerr << result.diagnostic->format() << '\n';
    return result.status == python::RunStatus::Ok;
}

} // namespace

int main()
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gradstep_python_bench";
    std::filesystem::create_directories(dir);
    const std::filesystem::path ours = dir / "gradstep_bench.py";
    const std::filesystem::path torch = dir / "torch_bench.py";
    std::ofstream(ours) << kTiming << kGradstep << kLeNet5Cell << kGradstepSteps;
    std::ofstream(torch) << kTiming << kTorch << bench::kTorchLeNet5 << kTorchAfterLeNet5;

    cppLeNetStep();
    python::Host::start();
    const bool ok = runScript(ours);
    python::Host::shutdown();
    if (std::system("/usr/bin/python3 -c 'import torch' 2>/dev/null") == 0) {
        if (std::system(("/usr/bin/python3 " + torch.string()).c_str()) != 0)
            std::puts("PyTorch: the comparison script failed");
    } else
        std::puts("PyTorch: not installed (bash ../shared/bench/install_deps.sh adds it); no comparison");
    std::filesystem::remove_all(dir);
    return ok ? 0 : 1;
}
