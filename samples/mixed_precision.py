"""Mixed precision: LeNet5 on the handwritten digits at amp level O2, with dynamic loss scaling.

What it teaches: amp.build_train_network(net, optimizer, loss_fn, level="O2") runs the network in
float16 (its Parameters stay float32: each op gets a float16 copy, and the gradient flows back
through that cast into float32), computes the loss in float32, and trains through
TrainOneStepWithLossScaleCell, which multiplies the loss by a scale so that small float16
gradients do not round to zero. Each step returns (loss, overflow, scale). MindSpore's starting
scale, 2**24, is far too large here: the scaled gradient of the loss overflows float16's range
(65504) as it enters the network, so the first steps overflow, skip their update and halve the
scale, until it fits; after scale_window good steps the scale doubles again, and an overflow
halves it back. The loss then falls as in float32.

Run it with `gradstep run samples/mixed_precision.py`: the step table shows the loss scale and
the overflowing steps. `gradstep debug samples/mixed_precision.py --watch overflow` stops at the
node where the first step's scaled gradient overflowed float16, with the value float32 held.
"""
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import amp, nn
from mindspore.common.initializer import Normal

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
BATCH = 32
EPOCHS = 3


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
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
    # uint8 HWC (32, 32, 1) -> float32 CHW (1, 32, 32) in [-1, 1]
    return ((image.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


def create_dataset(usage, shuffle):
    dataset = ds.MnistDataset(DATA_DIR, usage=usage, shuffle=False)
    dataset = dataset.map(normalise, input_columns="image")
    dataset = dataset.map(lambda label: label.astype(np.int32), input_columns="label")
    if shuffle:
        dataset = dataset.shuffle(buffer_size=2000)
    return dataset.batch(BATCH, drop_remainder=shuffle)


ms.set_seed(0)
train_set = create_dataset("train", shuffle=True)
test_set = create_dataset("test", shuffle=False)

net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
# MindSpore's defaults but a shorter window, so that the scale also grows within this short run.
scale_manager = amp.DynamicLossScaleManager(init_loss_scale=2 ** 24, scale_factor=2, scale_window=40)
train_step = amp.build_train_network(net, optimizer, loss_fn, level="O2", loss_scale_manager=scale_manager)

print(f"parameters stay {net.conv1.weight.dtype}; the network computes in float16")
first_loss = None
for epoch in range(EPOCHS):
    losses, overflows = [], 0
    for data, label in train_set.create_tuple_iterator():
        loss, overflow, scale = train_step(data, label)
        overflows += int(overflow)
        if not overflow:  # an overflowing step's loss is fine, but it did not train
            losses.append(float(loss))
    first_loss = losses[0] if first_loss is None else first_loss
    print(f"epoch {epoch + 1}  mean loss {np.mean(losses):.4f}  overflowing steps {overflows}  "
          f"loss scale now {float(scale.asnumpy()):g}")

net.set_train(False)
correct = total = 0
for data, label in test_set.create_tuple_iterator():
    correct += int((net(data).asnumpy().argmax(axis=1) == label.asnumpy()).sum())
    total += label.shape[0]
print(f"test accuracy {correct / total:.1%} on {total} held-out digits (chance 10%)")
assert losses[-1] < first_loss / 2, "the loss did not go down"
