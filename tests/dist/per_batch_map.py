"""batch(per_batch_map=...) slicing a global batch by rank: every rank reads the whole data set in
the same order, batches GLOBAL rows and keeps its own GLOBAL / size of them. The ranks' slices of
each batch are disjoint and together are the batch; training on them with the gradients averaged
gives every rank the same weights."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops, Tensor
from mindspore.communication import init, get_rank, get_group_size

init()
rank, size = get_rank(), get_group_size()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=size)
ms.set_seed(2)
GLOBAL, ROWS = 8, 32  # divisible by 1, 2 and 4 ranks
rng = np.random.RandomState(4)
data = {"id": np.arange(ROWS, dtype=np.int32), "x": rng.uniform(-1, 1, (ROWS, 3)).astype(np.float32)}


def my_slice(ids, x, info):
    per_rank = len(ids) // size
    part = slice(rank * per_rank, (rank + 1) * per_rank)
    return ids[part], x[part]


dataset = ds.NumpySlicesDataset(data, shuffle=True).batch(GLOBAL, drop_remainder=True, per_batch_map=my_slice,
                                                         input_columns=["id", "x"])
net = nn.Dense(3, 1)
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)
reducer = nn.DistributedGradReducer(optimizer.parameters)
grad_fn = ms.value_and_grad(lambda x: ops.mean(net(x) ** 2), None, optimizer.parameters)
batches = 0
for ids, x in dataset.create_tuple_iterator():
    assert ids.shape == (GLOBAL // size,), ids.shape
    everyone = ops.AllGather()(ids).asnumpy()
    assert len(set(everyone.tolist())) == GLOBAL, "the ranks' slices of batch %d overlap: %s" % (batches, everyone)
    _, grads = grad_fn(x)
    optimizer(reducer(grads))
    batches += 1
assert batches == ROWS // GLOBAL, batches
weights = ops.AllGather()(net.weight.value().reshape(1, -1)).asnumpy()
assert np.array_equal(weights.min(axis=0), weights.max(axis=0)), "the ranks' weights drifted apart"
print("per_batch_map slices ok on rank %d of %d" % (rank, size))
