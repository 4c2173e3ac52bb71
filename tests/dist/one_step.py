"""One data-parallel training step on N ranks against the single-process step on the full batch.
Usage: one_step.py MEAN|SUM CELL|MODEL. Each rank trains on its shard (num_shards / shard_id) with
TrainOneStepCell or Model, which insert the gradient all-reduce in DATA_PARALLEL mode; the
reference is computed on every rank, without any collective, from the whole batch: with
gradients_mean the gradients are the full batch's mean gradients; without it they are summed, N
times as large. The weights after the step must agree within float32's 1e-5 relative."""
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops, Tensor, context
from mindspore.communication import init, get_rank, get_group_size
from mindspore.train import Model

reduction, driver = sys.argv[1], sys.argv[2]
init()
rank, size = get_rank(), get_group_size()
context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL,
                                  gradients_mean=(reduction == "mean"), device_num=size)

BATCH = 8  # divisible by 1, 2 and 4 ranks
rng = np.random.RandomState(7)
features = rng.uniform(-1, 1, (BATCH, 5)).astype(np.float32)
labels = rng.randint(0, 3, BATCH).astype(np.int32)
w1 = rng.uniform(-0.5, 0.5, (4, 5)).astype(np.float32)
w2 = rng.uniform(-0.5, 0.5, (3, 4)).astype(np.float32)


def make_net():
    net = nn.SequentialCell([nn.Dense(5, 4), nn.Tanh(), nn.Dense(4, 3)])
    params = net.trainable_params()
    for p, value in zip(params, [w1, np.zeros(4, np.float32) + 0.1, w2, np.zeros(3, np.float32) - 0.1]):
        p.set_data(Tensor(value))
    return net


loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
LR = 0.5

# Data parallel: this rank's shard, one batch of BATCH / size rows.
shard = ds.NumpySlicesDataset({"x": features, "y": labels}, shuffle=False, num_shards=size, shard_id=rank)
shard = shard.batch(BATCH // size)
net = make_net()
optimizer = nn.SGD(net.trainable_params(), learning_rate=LR)
if driver == "cell":
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
    assert step.reducer_flag, "TrainOneStepCell did not see DATA_PARALLEL"
    for x, y in shard.create_tuple_iterator():
        step(x, y)
else:
    Model(net, loss_fn, optimizer).train(1, shard)

# The reference: the full batch in this process, no collective.
reference = make_net()
ref_params = reference.trainable_params()
scale = 1.0 if reduction == "mean" else float(size)


def full_loss(x, y):
    return loss_fn(reference(x), y) * scale


_, grads = ms.value_and_grad(full_loss, None, ref_params)(Tensor(features), Tensor(labels))
for p, g in zip(ref_params, grads):
    p.set_data(p.value() - g * LR)

worst = 0.0
for p, q in zip(net.trainable_params(), ref_params):
    a, b = p.asnumpy(), q.asnumpy()
    worst = max(worst, float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-6))))
print("rank %d of %d, %s, %s: max relative difference to the full-batch step %.3g" % (rank, size, reduction, driver, worst))
assert worst < 1e-5, "the data-parallel step differs from the full-batch step"
assert float(np.abs(net.trainable_params()[0].asnumpy() - w1).max()) > 1e-4, "the step changed nothing"
