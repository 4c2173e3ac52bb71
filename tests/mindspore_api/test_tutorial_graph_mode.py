"""Graph-mode pieces of the static graph and error analysis tutorials: a jit training step with
BCELoss and Adam (its elementwise kernels once depended on each other and the compile stopped)
gives PyNative's loss and parameters, and a construct written without self is refused as
MindSpore refuses it."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, raises


def make_step(jit):
    network = nn.Dense(10, 1, weight_init="ones", bias_init="zeros")
    loss_fn = nn.BCELoss()
    optimizer = nn.Adam(network.trainable_params(), 0.01)

    def forward_fn(data, label):
        return loss_fn(network(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return network, (ms.jit(train_step) if jit else train_step)


rng = np.random.RandomState(0)
data = Tensor(rng.rand(4, 10).astype(np.float32) * 0.05)  # outputs stay probabilities
label = Tensor(rng.randint(0, 2, (4, 1)).astype(np.float32))
eager_net, eager_step = make_step(False)
graph_net, graph_step = make_step(True)
for _ in range(3):
    close(graph_step(data, label), eager_step(data, label).asnumpy(), 1e-5, 1e-6)
close(graph_net.weight, eager_net.weight.asnumpy(), 1e-5, 1e-6)
assert ms._jit_stats()["compiles"] >= 1


class NoSelf(nn.Cell):
    def construct(*inputs):
        return inputs[0]


ms.set_context(mode=ms.GRAPH_MODE)
raises(TypeError, NoSelf(), Tensor(1.0), match="The function construct needs 0 positional argument")
ms.set_context(mode=ms.PYNATIVE_MODE)
