"""ranks-diverge: a data-parallel script whose ranks initialise their weights from different
seeds (argument "per-rank", a common bug) against one that seeds every rank alike ("same") and
one that seeds them differently but sets parameter_broadcast ("per-rank-broadcast").
With --watch ranks-diverge the first run stops after step 1's update naming the first parameter;
the others train their 3 steps with equal weights on every rank."""
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, Tensor, context
from mindspore.communication import init, get_rank

init()
ms.set_seed(0 if sys.argv[1] == "same" else get_rank())
# "per-rank-broadcast": parameter_broadcast sends rank 0's initial weights to every rank.
context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                  parameter_broadcast=sys.argv[1] == "per-rank-broadcast")
net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 1)])
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
rng = np.random.RandomState(get_rank())
for i in range(3):
    step(Tensor(rng.randn(8, 4).astype(np.float32)), Tensor(rng.randn(8, 1).astype(np.float32)))
print("rank %d trained 3 steps" % get_rank())
