"""Model.train against the same steps in a hand-written loop (gradstep issue 15: at most 5 % more
per step). Run: gradstep run tests/bench/python/model_train_vs_loop.py

Both sides train one TrainOneStepCell(WithLossCell(net, loss), optimizer) over one dataset object,
in this process: "model" calls Model.train(1, ds) once per epoch, "loop" iterates
ds.create_tuple_iterator() and calls the cell. A step's time is the wall time between the ends of
two consecutive steps (the first step of an epoch counts from just before train / the iterator is
made), so it includes what each side does between network calls: the iterator, Model's checks,
callbacks and bookkeeping. Model's timestamps come from a one-line callback; the loop takes the same
perf_counter() call inline. Epochs alternate A/B then B/A so drift (other processes, caches) hits
both; after warm-up epochs, we report per-step median and minimum, and the mean per step over whole
epochs (which also charges once-per-epoch costs such as Model.train's argument checks).
"""
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import Normal
from mindspore.train import Callback, Model
import mindspore.dataset as ds

EPOCHS = 12 if "--quick" in sys.argv else 40  # timed epochs per side, after WARMUP
WARMUP = 2


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(400, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, 10, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


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

    def model_epoch(stamps):
        callback = StepTimes(stamps)
        stamps.append(time.perf_counter())
        model.train(1, dataset, callbacks=[callback], dataset_sink_mode=False)

    def loop_epoch(stamps):
        stamps.append(time.perf_counter())
        for data, label in dataset.create_tuple_iterator(num_epochs=1):
            train_net(data, label)
            stamps.append(time.perf_counter())

    sides = {"Model.train": model_epoch, "loop": loop_epoch}
    steps = {k: [] for k in sides}   # per-step seconds
    epochs = {k: [] for k in sides}  # per-step seconds, whole epoch / steps
    for e in range(WARMUP + EPOCHS):
        order = list(sides) if e % 2 == 0 else list(sides)[::-1]  # A/B, then B/A
        for side in order:
            stamps = []
            sides[side](stamps)
            assert len(stamps) == steps_per_epoch + 1, (side, len(stamps))
            if e >= WARMUP:
                steps[side] += list(np.diff(stamps))
                epochs[side].append((stamps[-1] - stamps[0]) / steps_per_epoch)

    print(f"{name}: {steps_per_epoch} steps/epoch, {EPOCHS} epochs per side after {WARMUP} warm-up")
    row = "  {:12s} step median {:8.3f} ms  min {:8.3f} ms  | epoch/steps median {:8.3f} ms  min {:8.3f} ms"
    for side in sides:
        s, ep = steps[side], epochs[side]
        print(row.format(side, statistics.median(s) * 1e3, min(s) * 1e3, statistics.median(ep) * 1e3,
                         min(ep) * 1e3))
    ratio_med = statistics.median(steps["Model.train"]) / statistics.median(steps["loop"])
    ratio_min = min(steps["Model.train"]) / min(steps["loop"])
    ratio_ep = statistics.median(epochs["Model.train"]) / statistics.median(epochs["loop"])
    verdict = "OK" if ratio_med <= 1.05 and ratio_ep <= 1.05 else "OVER 5 %"
    print(f"  Model.train / loop: step median {ratio_med:.3f}, step min {ratio_min:.3f}, "
          f"epoch median {ratio_ep:.3f}  -> {verdict}", flush=True)


ms.set_seed(0)
bench("LeNet5 b32, NumpySlicesDataset", LeNet5(), numpy_dataset((1, 32, 32), 32 * 16, 32))
bench("LeNet5 b32, GeneratorDataset", LeNet5(), generator_dataset((1, 32, 32), 32 * 16, 32))
bench("MLP 784-256-128-10 b64, NumpySlicesDataset", MLP(), numpy_dataset((784,), 64 * 16, 64))
bench("MLP 784-256-128-10 b64, GeneratorDataset", MLP(), generator_dataset((784,), 64 * 16, 64))
