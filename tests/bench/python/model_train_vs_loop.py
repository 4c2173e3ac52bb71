"""Model.train against the same steps in a hand-written loop (gradstep issue 15: at most 5 % more
per step). Run: tests/bench/run_script tests/bench/python/model_train_vs_loop.py [--quick]

Both sides train one TrainOneStepCell(WithLossCell(net, loss), optimizer) over one dataset object,
in this process: "Model.train" calls Model.train(EPOCHS, ds) once per round, as scripts call it;
"loop" runs EPOCHS epochs of `for data, label in ds.create_tuple_iterator(): train_net(data, label)`.
A step's time is the wall time between the ends of two consecutive steps (the first step of a
round counts from just before train / the loop starts), so it includes what each side does between
network calls: the iterator, Model's checks, callbacks and bookkeeping. Model's timestamps come from
a one-line callback; the loop takes the same perf_counter() call inline. Rounds alternate A/B then
B/A so drift (other processes, caches) hits both sides; after a warm-up round we report the median
and minimum step, and the mean step of whole rounds, which also charges Model.train's once-per-call
work (its argument checks count the dataset: a GeneratorDataset of unknown size is run through once).
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.train import Callback, Model
import mindspore.dataset as ds
from lenet5 import LeNet5  # tests/bench/python/lenet5.py

ROUNDS = 4 if "--quick" in sys.argv else 10  # timed rounds per side, after WARMUP
WARMUP = 1
EPOCHS = 3  # epochs per round: per Model.train call


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell(nn.Dense(784, 256), nn.ReLU(), nn.Dense(256, 128), nn.ReLU(),
                                      nn.Dense(128, 10))

    def construct(self, x):
        return self.body(x)


class StepTimes(Callback):
    """Appends perf_counter() at each step's end: the only work Model does for the measurement."""

    def __init__(self, stamps):
        super().__init__()
        self.stamps = stamps

    def on_train_step_end(self, run_context):
        self.stamps.append(time.perf_counter())


def numpy_dataset(shape, n, batch):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((n,) + shape).astype(np.float32)
    label = (np.arange(n) % 10).astype(np.int32)
    return ds.NumpySlicesDataset({"data": data, "label": label}, shuffle=False).batch(batch)


def generator_dataset(shape, n, batch):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((n,) + shape).astype(np.float32)
    label = (np.arange(n) % 10).astype(np.int32)

    def gen():
        for i in range(n):
            yield data[i], label[i]
    return ds.GeneratorDataset(gen, ["data", "label"], shuffle=False).batch(batch)


def bench(name, net, dataset):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=opt)
    train_net = model.train_network  # the very cell Model.train calls: TrainOneStepCell(WithLossCell)
    train_net.set_train(True)
    steps_per_epoch = dataset.get_dataset_size()

    def model_round(stamps):
        stamps.append(time.perf_counter())
        model.train(EPOCHS, dataset, callbacks=[StepTimes(stamps)], dataset_sink_mode=False)

    def loop_round(stamps):
        stamps.append(time.perf_counter())
        for _ in range(EPOCHS):
            for data, label in dataset.create_tuple_iterator(num_epochs=1):
                train_net(data, label)
                stamps.append(time.perf_counter())

    sides = {"Model.train": model_round, "loop": loop_round}
    steps = {k: [] for k in sides}   # per-step seconds
    rounds = {k: [] for k in sides}  # per-step seconds, whole round / steps
    per_round = EPOCHS * steps_per_epoch
    for r in range(WARMUP + ROUNDS):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]  # A/B, then B/A
        for side in order:
            stamps = []
            sides[side](stamps)
            assert len(stamps) == per_round + 1, (side, len(stamps))
            if r >= WARMUP:
                steps[side] += list(np.diff(stamps))
                rounds[side].append((stamps[-1] - stamps[0]) / per_round)

    print(f"{name}: {ROUNDS} rounds of {EPOCHS} epochs x {steps_per_epoch} steps per side, after {WARMUP} warm-up")
    row = "  {:12s} step median {:8.3f} ms  min {:8.3f} ms  | round/steps median {:8.3f} ms  min {:8.3f} ms"
    for side in sides:
        s, ep = steps[side], rounds[side]
        print(row.format(side, statistics.median(s) * 1e3, min(s) * 1e3, statistics.median(ep) * 1e3,
                         min(ep) * 1e3))
    ratio_med = statistics.median(steps["Model.train"]) / statistics.median(steps["loop"])
    ratio_min = min(steps["Model.train"]) / min(steps["loop"])
    ratio_ep = statistics.median(rounds["Model.train"]) / statistics.median(rounds["loop"])
    verdict = "OK" if ratio_med <= 1.05 and ratio_ep <= 1.05 else "OVER 5 %"
    print(f"  Model.train / loop: step median {ratio_med:.3f}, step min {ratio_min:.3f}, "
          f"round median {ratio_ep:.3f}  -> {verdict}", flush=True)


ms.set_seed(0)
bench("LeNet5 b32, NumpySlicesDataset", LeNet5(), numpy_dataset((1, 32, 32), 32 * 16, 32))
bench("LeNet5 b32, GeneratorDataset", LeNet5(), generator_dataset((1, 32, 32), 32 * 16, 32))
bench("MLP 784-256-128-10 b64, NumpySlicesDataset", MLP(), numpy_dataset((784,), 64 * 16, 64))
bench("MLP 784-256-128-10 b64, GeneratorDataset", MLP(), generator_dataset((784,), 64 * 16, 64))
