"""Gradient functions called inside compiled code (a graph-mode construct, a @jit function) give
the same values as in PyNative mode (Note [Gradients inside compiled code], jit_runtime.cpp)."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn, ops

from _check import close


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.tanh = ops.Tanh()

    def construct(self, x):
        return self.tanh(x) * x


class GradAll(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.network = network

    def construct(self, x, sens):
        return self.grad(self.network)(x, sens)


x_np = np.array([0.5, -1.0, 2.0], np.float32)
sens_np = np.array([1.0, 2.0, 0.5], np.float32)
t = np.tanh(x_np)
expected = sens_np * (t + x_np * (1 - t * t))  # d/dx x tanh(x)

for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):
    context.set_context(mode=mode)
    (dx,) = GradAll(Net())(Tensor(x_np), Tensor(sens_np))
    close(dx, expected)
    # A second call takes the same decision (no recompilation error, same values).
    (dx,) = GradAll(Net())(Tensor(x_np), Tensor(sens_np))
    close(dx, expected)


def train(jit, mode):
    context.set_context(mode=mode)
    ms.set_seed(1)
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    loss_fn = nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), 0.1)

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    step = ms.jit(train_step) if jit else train_step
    data = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    label = Tensor(np.zeros((4, 2), np.float32))
    return [float(step(data, label).asnumpy()) for _ in range(3)]


reference = train(False, context.PYNATIVE_MODE)
# MSE of x @ ones(3, 2): the first loss in closed form.
rows = (np.arange(12, dtype=np.float32).reshape(4, 3) / 10).sum(axis=1)
assert abs(reference[0] - float(np.mean(rows ** 2))) < 1e-5
assert reference[2] < reference[1] < reference[0]
for jit, mode in ((True, context.PYNATIVE_MODE), (True, context.GRAPH_MODE), (False, context.GRAPH_MODE)):
    got = train(jit, mode)
    assert np.allclose(got, reference, rtol=1e-5), (jit, mode, got, reference)
