"""The LeNet5 training step (batch 32, value_and_grad + SGD) with mindspore.Profiler off and on:
`run_script profiler_overhead.py MODE [profile]`, MODE pynative, graph or jit. Prints the step
time's median, p10 and minimum in ms over at least 2.5 s; with `profile`, a Profiler times every
op of those steps and analyse() writes its files to a temporary directory (its time printed too).
Run it against a build without the profiler to see the cost of the hook when it is off; the
machine is shared, so compare minima over several alternated runs."""
import shutil
import sys
import tempfile
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn

from lenet5 import LeNet5

mode = sys.argv[1] if len(sys.argv) > 1 else "pynative"
profile = "profile" in sys.argv[2:]
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
ms.set_seed(1)
net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)


def step(x, y):
    loss, grads = grad_fn(x, y)
    opt(grads)
    return loss


if mode == "jit":
    step = ms.jit(step)
rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((32, 1, 32, 32)).astype(np.float32))
y = Tensor(rng.integers(0, 10, 32).astype(np.int32))
out = tempfile.mkdtemp(prefix="profiler_overhead_")
try:
    profiler = ms.Profiler(output_path=out) if profile else None
    for _ in range(5):
        step(x, y)
    samples = []
    end = time.perf_counter() + 2.5
    while len(samples) < 40 or time.perf_counter() < end:
        t0 = time.perf_counter()
        step(x, y)
        samples.append((time.perf_counter() - t0) * 1e3)
    samples.sort()
    print("%s, profiler %s: median %.3f ms, p10 %.3f ms, min %.3f ms (%d steps)"
          % (mode, "on" if profile else "off", samples[len(samples) // 2], samples[len(samples) // 10], samples[0],
             len(samples)))
    if profiler:
        t0 = time.perf_counter()
        profiler.analyse()
        print("analyse: %.0f ms" % ((time.perf_counter() - t0) * 1e3))
finally:
    shutil.rmtree(out, ignore_errors=True)
