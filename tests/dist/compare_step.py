"""A data-parallel training script as MindSpore's tutorial writes it, for gradstep compare --what
ranks: init(), DATA_PARALLEL with gradients_mean (or summed with the argument `sum`), the data set
sharded by rank and shuffled, a per-rank batch, and DistributedGradReducer before the optimizer.
Run on N ranks, its first step must equal the step one rank takes on the full batch (N x BATCH
rows); summed, it is N times as large."""
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.communication import init, get_rank, get_group_size

init()
rank, size = get_rank(), get_group_size()
mean = not (len(sys.argv) > 1 and sys.argv[1] == "sum")
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=mean, device_num=size)

ROWS, BATCH = 64, 4  # per rank
rng = np.random.RandomState(3)
features = rng.uniform(-1, 1, (ROWS, 6)).astype(np.float32)
labels = rng.randint(0, 3, ROWS).astype(np.int32)
dataset = ds.NumpySlicesDataset({"x": features, "y": labels}, shuffle=True, num_shards=size, shard_id=rank)
dataset = dataset.batch(BATCH, drop_remainder=True)

net = nn.SequentialCell([nn.Dense(6, 5), nn.Tanh(), nn.Dense(5, 3)])
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)
reducer = nn.DistributedGradReducer(optimizer.parameters)
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

for x, y in dataset.create_tuple_iterator():
    loss, grads = grad_fn(x, y)
    optimizer(reducer(grads))
print("rank %d of %d done" % (rank, size))
