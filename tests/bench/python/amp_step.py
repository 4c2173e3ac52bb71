"""Mixed precision's cost (gradstep issue 17): a LeNet5 training step at amp level O2 against the
float32 step (targets: at most 1.3x), and a float16 elementwise op on 1M elements against float32
(at most 1.5x). Run: tests/bench/run_script tests/bench/python/amp_step.py [--quick]

The float32 step is amp.build_train_network(..., level="O0"): TrainOneStepCell(WithLossCell(net,
loss), Momentum). The O2 step is build_train_network(..., level="O2"): the network in float16 but its
loss in float32, TrainOneStepWithLossScaleCell with a DynamicLossScaleManager. Both train the same
batches of 32 (1, 32, 32) images; rounds alternate between the two so drift hits both, and we
report the median step of each after a warm-up. The elementwise figures are the median of many
calls of ops.add / ops.mul / ops.exp and the unary relu / neg / abs / square / sqrt / tanh on 2^20
elements.
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, amp, nn, ops
from lenet5 import LeNet5  # tests/bench/python/lenet5.py

QUICK = "--quick" in sys.argv
ROUNDS = 3 if QUICK else 8
STEPS = 10 if QUICK else 20
CALLS = 50 if QUICK else 200


def train_step(level):
    ms.set_seed(0)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return amp.build_train_network(net, opt, loss, level=level)


def time_steps(step, batches):
    times = []
    for x, y in batches:
        start = time.perf_counter()
        step(x, y)
        times.append(time.perf_counter() - start)
    return times


def bench_steps():
    rng = np.random.RandomState(0)
    batches = [(Tensor(rng.rand(32, 1, 32, 32).astype(np.float32)), Tensor(rng.randint(0, 10, 32).astype(np.int32)))
               for _ in range(STEPS)]
    steps = {"float32 (O0)": train_step("O0"), "O2": train_step("O2")}
    for step in steps.values():
        time_steps(step, batches[:2])  # warm-up
    times = {name: [] for name in steps}
    order = list(steps)
    for r in range(ROUNDS):
        for name in (order if r % 2 == 0 else order[::-1]):
            times[name].extend(time_steps(steps[name], batches))
    med = {name: statistics.median(t) * 1e3 for name, t in times.items()}
    print("LeNet5 step, batch 32: float32 %.3f ms, O2 %.3f ms: O2 / float32 = %.2fx (target <= 1.3x)"
          % (med["float32 (O0)"], med["O2"], med["O2"] / med["float32 (O0)"]))


def time_op(fn, *args):
    fn(*args)
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def bench_elementwise():
    rng = np.random.RandomState(1)
    a32 = Tensor(rng.rand(1 << 20).astype(np.float32))
    b32 = Tensor(rng.rand(1 << 20).astype(np.float32) + 0.5)
    a16, b16 = a32.astype(ms.float16), b32.astype(ms.float16)
    for name, fn, args32, args16 in (("add", ops.add, (a32, b32), (a16, b16)),
                                     ("mul", ops.mul, (a32, b32), (a16, b16)),
                                     ("exp", ops.exp, (a32,), (a16,)),
                                     ("relu", ops.relu, (a32,), (a16,)),
                                     ("neg", ops.neg, (a32,), (a16,)),
                                     ("abs", ops.abs, (a32,), (a16,)),
                                     ("square", ops.square, (a32,), (a16,)),
                                     ("sqrt", ops.sqrt, (a32,), (a16,)),
                                     ("tanh", ops.tanh, (a32,), (a16,))):
        t32 = time_op(fn, *args32)
        t16 = time_op(fn, *args16)
        print("%s on 2^20 elements: float32 %.3f ms, float16 %.3f ms: %.2fx (target <= 1.5x)"
              % (name, t32, t16, t16 / t32))


bench_steps()
bench_elementwise()
