"""ops.jacfwd as one vmapped jvp against the Python loop of one jvp per input element it replaced.
Run: tests/bench/run_script tests/bench/python/jacfwd_vmapped_vs_loop.py [--quick]

An MLP 64-128-10 (tanh) at one input (64 columns: a 10x64 Jacobian) and at a batch of 32 inputs
(2048 columns: 32x10x32x64). "loop" pushes one basis tangent at a time through ops.jvp and stacks
the columns (gradstep's jacfwd before it was vmapped); "vmapped" is ops.jacfwd; jacrev (one vjp
per output element) for reference. After a warm-up call each, rounds rotate the order and we
report each side's median and minimum time. All three results are checked equal before timing.
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

ROUNDS = 5 if "--quick" in sys.argv else 15
rng = np.random.RandomState(0)
W1 = Tensor((rng.randn(64, 128) / 8).astype(np.float32))
b1 = Tensor(rng.randn(128).astype(np.float32))
W2 = Tensor((rng.randn(128, 10) / 11).astype(np.float32))


def mlp(x):
    return ops.matmul(ops.tanh(ops.matmul(x, W1) + b1), W2)


def jacfwd_by_loop(fn):
    def jac(x):
        out = fn(x)
        columns = []
        for e in range(x.size):
            basis = np.zeros(x.size, np.float32)
            basis[e] = 1
            columns.append(ops.jvp(fn, x, Tensor(basis.reshape(x.shape)))[1])
        return ops.reshape(ops.stack(columns, -1), tuple(out.shape) + tuple(x.shape))
    return jac


def measure(name, x):
    sides = [("loop", jacfwd_by_loop(mlp)), ("vmapped", ops.jacfwd(mlp)), ("jacrev", ops.jacrev(mlp))]
    results = [fn(x).asnumpy() for _, fn in sides]
    worst = max(float(np.abs(r - results[2]).max()) for r in results[:2])
    assert worst < 1e-5, "jacobians differ by %g" % worst
    before = ms._vmap_stats()
    sides[1][1](x)
    after = ms._vmap_stats()
    times = {side: [] for side, _ in sides}
    for r in range(ROUNDS):
        for side, fn in sides[r % 3:] + sides[:r % 3]:
            start = time.perf_counter()
            fn(x)
            times[side].append(time.perf_counter() - start)
    med = {side: statistics.median(t) * 1e3 for side, t in times.items()}
    low = {side: min(t) * 1e3 for side, t in times.items()}
    print("%-12s %5d columns: loop median %.2f ms (min %.2f), vmapped median %.2f ms (min %.2f): %.1fx; "
          "jacrev median %.2f ms; max |difference| %.1e; ops batched %d, per element %d"
          % (name, x.size, med["loop"], low["loop"], med["vmapped"], low["vmapped"], med["loop"] / med["vmapped"],
             med["jacrev"], worst, after[0] - before[0], after[1] - before[1]))


measure("one input", Tensor(rng.randn(64).astype(np.float32)))
measure("batch of 32", Tensor(rng.randn(32, 64).astype(np.float32)))
