"""ranks-diverge: a data-parallel script whose ranks initialise their weights from different
seeds (argument "per-rank", a common bug) against one that seeds every rank alike ("same").
With --watch ranks-diverge the first run stops after step 1's update naming the first parameter;
the second trains its 3 steps with equal weights on every rank."""
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, Tensor, context
from mindspore.communication import init, get_rank

init()
ms.set_seed(get_rank() if sys.argv[1] == "per-rank" else 0)
context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True)
net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 1)])
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
rng = np.random.RandomState(get_rank())
for i in range(3):
    step(Tensor(rng.randn(8, 4).astype(np.float32)), Tensor(rng.randn(8, 1).astype(np.float32)))
print("rank %d trained 3 steps" % get_rank())
