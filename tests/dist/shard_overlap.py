"""shard-overlap: a data-parallel script whose GeneratorDataset reads a random-access source (its
row indices are the sample ids). With the argument `forget` it leaves out num_shards / shard_id,
so every rank trains on the same rows and the watchpoint must name step 1 and sample 0; with
`sharded` each rank reads its own rows (shuffled alike on every rank) and nothing is found."""
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.communication import init, get_rank, get_group_size

init()
rank, size = get_rank(), get_group_size()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=size)
ms.set_seed(5)

ROWS = 32
rng = np.random.RandomState(1)
features = rng.uniform(-1, 1, (ROWS, 4)).astype(np.float32)
targets = rng.uniform(-1, 1, (ROWS, 1)).astype(np.float32)


class Rows:
    def __getitem__(self, i):
        return features[i], targets[i]

    def __len__(self):
        return ROWS


if sys.argv[1] == "forget":
    dataset = ds.GeneratorDataset(Rows(), ["x", "y"], shuffle=False)
else:
    dataset = ds.GeneratorDataset(Rows(), ["x", "y"], shuffle=True, num_shards=size, shard_id=rank)
dataset = dataset.batch(4, drop_remainder=True)

net = nn.Dense(4, 1)
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.05)
reducer = nn.DistributedGradReducer(optimizer.parameters)
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

steps = 0
for epoch in range(2):
    for x, y in dataset.create_tuple_iterator():
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
        steps += 1
print("rank %d: %d steps" % (rank, steps))
