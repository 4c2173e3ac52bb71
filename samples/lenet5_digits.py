"""LeNet5 on real handwritten digits: the default sample.

What it teaches: a complete MindSpore training script. A dataset pipeline (MnistDataset over
the IDX files in samples/data, map to normalise and reorder to CHW, shuffle, batch), the LeNet5
network of MindSpore's docs written as an nn.Cell, value_and_grad over its trainable parameters,
a Momentum optimizer, and an accuracy check on held-out digits. The loss falls from about 2.3
(chance over 10 classes) below 0.5 within the first epochs. Step into a training step to watch
conv1 -> ... -> fc3 run forward, then the backward pass from the loss to every weight.
"""
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.common.initializer import Normal

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
BATCH = 32
EPOCHS = 4


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


def forward_fn(data, label):
    logits = net(data)
    return loss_fn(logits, label), logits


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)


def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss


def accuracy(dataset):
    net.set_train(False)
    correct = total = 0
    for data, label in dataset.create_tuple_iterator():
        predicted = net(data).asnumpy().argmax(axis=1)
        correct += int((predicted == label.asnumpy()).sum())
        total += label.shape[0]
    return correct / total, total


first_loss = None
for epoch in range(EPOCHS):
    net.set_train(True)
    losses = []
    for data, label in train_set.create_tuple_iterator():
        losses.append(float(train_step(data, label)))
    first_loss = losses[0] if first_loss is None else first_loss
    print(f"epoch {epoch + 1}  steps {len(losses)}  mean loss {np.mean(losses):.4f}  last {losses[-1]:.4f}")

test_accuracy, count = accuracy(test_set)
print(f"test accuracy {test_accuracy:.1%} on {count} held-out digits (chance 10%)")
assert losses[-1] < first_loss / 2, "the loss did not go down"
