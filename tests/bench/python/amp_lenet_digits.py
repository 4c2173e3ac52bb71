"""LeNet5 on the handwritten digits of samples/data, trained twice from the same initial weights
over the same batches, with the hyperparameters of samples/lenet5_digits.py: in float32 (amp level
O0) and at O2 (float16 network, float32 loss, DynamicLossScaleManager) through
amp.build_train_network; then O2 without loss scaling and with a smaller initial scale, to tell
what float16 compute costs from what the skipped steps of the default scale do. Issue 17 asks for
the O2 run to end within 2 % of the float32 run's loss (here the mean loss of the last epoch).

Two float32 controls say how far apart two runs end when nothing about precision differs: the
same run with conv1's initial weights scaled by (1 + 1e-6), and the same run without its first 10
steps (the steps O2's default scale of 2^24 skips while it halves down to 2^14). This training
(4 epochs, lr 0.05, momentum 0.9) is chaotic: such controls end 3 % to 55 % away from the float32
run, so a single run's 2 % cannot tell float16 from noise. That the float16 step itself is right
is tests/mindspore_api/test_amp_o2_step_matches_float16.py (an O2 step equals a NumPy float16
emulation of it).
Run: tests/bench/run_script tests/bench/python/amp_lenet_digits.py
"""
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import amp, nn
from mindspore.common.initializer import Normal

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "samples", "data")
BATCH = 32
EPOCHS = 4


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(400, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, 10, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def normalise(image):
    return ((image.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


def batches(usage):
    dataset = ds.MnistDataset(DATA_DIR, usage=usage, shuffle=False)
    dataset = dataset.map(normalise, input_columns="image")
    dataset = dataset.map(lambda label: label.astype(np.int32), input_columns="label")
    return [(d, l) for d, l in dataset.batch(BATCH, drop_remainder=usage == "train").create_tuple_iterator()]


train_batches = batches("train")
test_batches = batches("test")
order = np.random.RandomState(0)
epoch_orders = [order.permutation(len(train_batches)) for _ in range(EPOCHS)]


def train(level, perturb=0.0, skip=0, **kwargs):
    ms.set_seed(0)
    net = LeNet5()
    if perturb:
        net.conv1.weight.set_data(ms.Tensor(net.conv1.weight.asnumpy() * np.float32(1 + perturb)))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = amp.build_train_network(net, optimizer, loss_fn, level=level, **kwargs)
    overflows = 0
    for e in range(EPOCHS):
        losses = []
        for k, i in enumerate(epoch_orders[e]):
            if e == 0 and k < skip:
                continue
            out = step(*train_batches[i])
            if isinstance(out, tuple):
                loss, overflow, _ = out
                overflows += int(bool(overflow.asnumpy()))
            else:
                loss = out
            losses.append(float(loss.asnumpy()))
    net.set_train(False)
    correct = sum(int((net(d).asnumpy().argmax(axis=1) == l.asnumpy()).sum()) for d, l in test_batches)
    total = sum(l.shape[0] for _, l in test_batches)
    return float(np.mean(losses)), correct / total, overflows


def report(name, result, reference):
    loss, acc, overflows = result
    print("%-34s last-epoch mean loss %.4f (%+6.1f %% of float32), test accuracy %5.1f %%, overflowing steps %d"
          % (name, loss, 100 * (loss - reference) / reference, 100 * acc, overflows))


float32 = train("O0")
report("float32 (O0)", float32, float32[0])
report("O0, conv1 weights x (1 + 1e-6)", train("O0", perturb=1e-6), float32[0])
report("O0 without its first 10 steps", train("O0", skip=10), float32[0])
report("O2 (DynamicLossScaleManager())", train("O2"), float32[0])
report("O2, no loss scaling", train("O2", loss_scale_manager=None), float32[0])
report("O2, DynamicLossScaleManager(2^10)", train("O2", loss_scale_manager=ms.DynamicLossScaleManager(2 ** 10)),
       float32[0])
