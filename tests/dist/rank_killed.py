"""Rank 1 is killed (SIGKILL) in the middle of a step while rank 0 waits in the all-reduce of
its gradients: the job ends with exit status 1, saying which rank died and which collective the
others waited in, instead of hanging."""
import os
import signal
import time

import mindspore as ms
from mindspore import nn, ops, Tensor, context
from mindspore.communication import init, get_rank

init()
context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True)
net = nn.Dense(3, 2)
loss_fn = nn.MSELoss()
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.SGD(net.trainable_params(), 0.1))
if get_rank() == 1:
    time.sleep(1.0)  # rank 0 is inside the all-reduce by then
    os.kill(os.getpid(), signal.SIGKILL)
step(Tensor([[1.0, 2.0, 3.0]]), Tensor([[0.5, -0.5]]))
print("rank %d finished the step" % get_rank())
