"""Per-example gradients by vmap against the Python loop it replaces (gradstep issue 16: vmap of a
per-example gradient over a batch of 32 at least 5x faster than the loop). Run:
tests/bench/run_script tests/bench/python/vmap_per_example_grads.py [--quick]

For a small MLP (64-128-64-10) and LeNet5 (1x32x32), both sides compute every example's gradient
of its own loss with respect to every weight, stacked per weight (batch first):
"loop" calls grad_fn on each example and stacks the 32 results with ops.stack; "vmap" calls
vmap(grad_fn) once. After a warm-up call each, rounds alternate loop/vmap then vmap/loop and we
report each side's median and minimum time per batch and the ratio of the medians. Both sides'
results are checked equal before timing.
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from lenet5 import LeNet5  # tests/bench/python/lenet5.py
from mlp64 import MLP  # tests/bench/python/mlp64.py

ROUNDS = 5 if "--quick" in sys.argv else 15
BATCH = 32


def measure(name, net, example_shape):
    rng = np.random.RandomState(0)
    x = Tensor(rng.randn(BATCH, *example_shape).astype(np.float32))
    y = Tensor(rng.randint(0, 10, size=(BATCH,)).astype(np.int32))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    params = net.trainable_params()

    def example_loss(xe, ye):  # one example: a batch of one for the network
        return loss_fn(net(ops.expand_dims(xe, 0)), ops.expand_dims(ye, 0))

    grad_fn = ms.grad(example_loss, None, params)
    per_example = ms.vmap(grad_fn, in_axes=(0, 0))

    def by_loop():
        grads = [grad_fn(x[b], y[b]) for b in range(BATCH)]
        return [ops.stack([g[i] for g in grads]) for i in range(len(params))]

    def by_vmap():
        return per_example(x, y)

    a, b = by_loop(), by_vmap()
    worst = max(float(np.abs(p.asnumpy() - q.asnumpy()).max()) for p, q in zip(a, b))
    assert worst < 1e-4, "vmap and loop differ by %g" % worst
    before = ms._vmap_stats()
    by_vmap()
    after = ms._vmap_stats()
    times = {"loop": [], "vmap": []}
    sides = [("loop", by_loop), ("vmap", by_vmap)]
    for r in range(ROUNDS):
        for side, fn in (sides if r % 2 == 0 else sides[::-1]):
            start = time.perf_counter()
            fn()
            times[side].append(time.perf_counter() - start)
    loop_med, vmap_med = statistics.median(times["loop"]), statistics.median(times["vmap"])
    print("%-7s batch %d: loop median %.2f ms (min %.2f), vmap median %.2f ms (min %.2f): %.1fx; "
          "max |difference| %.1e; ops batched %d, per element %d"
          % (name, BATCH, loop_med * 1e3, min(times["loop"]) * 1e3, vmap_med * 1e3, min(times["vmap"]) * 1e3,
             loop_med / vmap_med, worst, after[0] - before[0], after[1] - before[1]))


measure("MLP", MLP(), (64,))
measure("LeNet5", LeNet5(dense_init=None), (1, 32, 32))
