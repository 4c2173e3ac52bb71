"""Data-parallel LeNet5 on the digits: MindSpore's migration pattern, rank by rank.

What it teaches: the data-parallel part of a MindSpore script. init() joins the ranks (started by
`gradstep run --ranks 2 samples/data_parallel.py`, or `mpirun -n 2 gradstep run ...`);
set_auto_parallel_context(parallel_mode=DATA_PARALLEL, gradients_mean=True) says the gradients
are averaged over the ranks; the dataset is sharded with num_shards / shard_id so each rank
trains on its own half of the digits; nn.DistributedGradReducer all-reduces each step's
gradients before the optimizer, so every rank takes the same step and the weights stay equal.
The step table shows each rank's gradient norm before the all-reduce (they differ: different
shards), and the AllReduce nodes show in the graph after the backward pass. Without a launcher
the script runs as one rank on all the digits.
"""
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.common.initializer import Normal
from mindspore.communication import init, get_rank, get_group_size

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
BATCH = 16  # per rank: 2 ranks take steps of 32 digits, as lenet5_digits.py does
EPOCHS = 4

init()
rank_id, rank_size = get_rank(), get_group_size()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                             device_num=rank_size)
ms.set_seed(1)  # the same initial weights on every rank


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
    return ((image.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


# Each rank reads its own shard: rows rank_id, rank_id + rank_size, ... of a shuffled order that
# every rank draws alike, so no digit is seen by two ranks in one epoch.
dataset = ds.MnistDataset(DATA_DIR, usage="train", shuffle=True, num_shards=rank_size, shard_id=rank_id)
dataset = dataset.map(normalise, input_columns="image")
dataset = dataset.map(lambda label: label.astype(np.int32), input_columns="label")
dataset = dataset.batch(BATCH, drop_remainder=True)

net = LeNet5()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
grad_reducer = nn.DistributedGradReducer(optimizer.parameters)


def forward_fn(data, label):
    return loss_fn(net(data), label)


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)


def train_step(data, label):
    loss, grads = grad_fn(data, label)
    grads = grad_reducer(grads)  # AllReduce, then / rank_size (gradients_mean)
    optimizer(grads)
    return loss


losses = []
for epoch in range(EPOCHS):
    for data, label in dataset.create_tuple_iterator():
        losses.append(float(train_step(data, label)))
    print(f"rank {rank_id} of {rank_size}: epoch {epoch + 1}  steps {len(losses)}  last loss {losses[-1]:.4f}")

# Every rank took the same steps: the weights agree to the last bit.
weights = ops.AllGather()(net.fc3.weight.value().reshape(1, -1)).asnumpy()
assert np.array_equal(weights.min(axis=0), weights.max(axis=0)), "the ranks' weights drifted apart"
steps_per_epoch = len(losses) // EPOCHS
assert np.mean(losses[-steps_per_epoch:]) < np.mean(losses[:10]) / 2, "the loss did not go down"
print(f"rank {rank_id}: the {rank_size} ranks hold the same weights; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
