"""ops.jvp by forward-mode rules against the double-vjp transform it replaced (gradstep issue 16).
Run: tests/bench/run_script tests/bench/python/jvp_forward_vs_double_vjp.py [--quick]

For a small MLP (64-128-64-10, batch 32) and LeNet5 (batch 32, 1x32x32), both sides compute the
network's output and J v for a random direction v of the input: "jvp" is ops.jvp (one forward
pass carrying tangents); "double vjp" is the transform gradstep used before (GradOperation with
sens_param twice: u -> J^T u, then its vjp with cotangent v). After a warm-up call each, rounds
alternate the sides; we report each side's median and minimum time and the ratio of the
medians. Both sides' results are checked equal before timing.
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import GradOperation
from lenet5 import LeNet5  # tests/bench/python/lenet5.py
from mlp64 import MLP  # tests/bench/python/mlp64.py

ROUNDS = 7 if "--quick" in sys.argv else 21
BATCH = 32


def double_vjp(fn, x, v):
    """J v as the vjp of u -> J^T u (both by GradOperation with sens_param)."""
    out = fn(x)
    inner = GradOperation(get_all=True, sens_param=True)

    def transposed(u):
        return inner(fn)(x, u)[0]

    jv = GradOperation(get_all=True, sens_param=True)(transposed)(ops.ones_like(out), v)[0]
    return out, jv


def measure(name, net, example_shape):
    rng = np.random.RandomState(0)
    x = Tensor(rng.randn(BATCH, *example_shape).astype(np.float32))
    v = Tensor(rng.randn(BATCH, *example_shape).astype(np.float32))
    by_jvp = lambda: ops.jvp(net, x, v)
    by_double = lambda: double_vjp(net, x, v)
    (_, a), (_, b) = by_jvp(), by_double()
    worst = float(np.abs(a.asnumpy() - b.asnumpy()).max())
    assert worst < 1e-4 * max(1.0, float(np.abs(b.asnumpy()).max())), "jvp and double vjp differ by %g" % worst
    before = ms._jvp_stats()
    by_jvp()
    after = ms._jvp_stats()
    times = {"jvp": [], "double vjp": []}
    sides = [("jvp", by_jvp), ("double vjp", by_double)]
    for r in range(ROUNDS):
        for side, fn in (sides if r % 2 == 0 else sides[::-1]):
            start = time.perf_counter()
            fn()
            times[side].append(time.perf_counter() - start)
    j, d = statistics.median(times["jvp"]), statistics.median(times["double vjp"])
    print("%-7s batch %d: jvp median %.2f ms (min %.2f), double vjp median %.2f ms (min %.2f): %.1fx; "
          "max |difference| %.1e; ops by rule %d, by fallback %d"
          % (name, BATCH, j * 1e3, min(times["jvp"]) * 1e3, d * 1e3, min(times["double vjp"]) * 1e3, d / j, worst,
             after[0] - before[0], after[1] - before[1]))


measure("MLP", MLP(), (64,))
measure("LeNet5", LeNet5(dense_init=None), (1, 32, 32))
