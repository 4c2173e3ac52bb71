"""Vanishing gradients in a deep sigmoid network.

What it teaches: sigmoid's derivative is at most 0.25, so each layer of a deep sigmoid stack
shrinks the gradient flowing back: the first layers barely learn. The script prints each layer's
weight-gradient norm (first layer on the left) for a 10-layer sigmoid net and for the same net,
same initialisation, with ReLU, whose derivative is 1 where it is active. Set a
gradient-vanishing watchpoint (norm below 1e-6) to find the first layer that stops learning.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.common.initializer import HeUniform

DEPTH = 10
WIDTH = 16


def make_net(activation):
    layers = []
    for _ in range(DEPTH):
        layers += [nn.Dense(WIDTH, WIDTH, weight_init=HeUniform()), activation()]
    layers.append(nn.Dense(WIDTH, 1, weight_init=HeUniform()))
    return nn.SequentialCell(layers)


ms.set_seed(6)
rng = np.random.default_rng(6)
x = Tensor(rng.normal(size=(32, WIDTH)).astype(np.float32))
y = Tensor(rng.normal(size=(32, 1)).astype(np.float32))
loss_fn = nn.MSELoss()

result = {}
for name, activation in [("sigmoid", nn.Sigmoid), ("relu", nn.ReLU)]:
    net = make_net(activation)
    weights = [p for p in net.trainable_params() if p.name.endswith("weight")]
    grads = ms.grad(lambda a, b: loss_fn(net(a), b), None, weights)(x, y)
    norms = [float(ops.norm(g)) for g in grads]
    result[name] = norms
    print(f"{name:8s}" + " ".join(f"{n:9.2e}" for n in norms))

for name, norms in result.items():
    print(f"{name}: the first layer's gradient is {norms[0] / norms[-1]:.2e} times the last layer's")
assert result["sigmoid"][0] < 1e-3 * result["sigmoid"][-1], "expected the sigmoid net's gradient to vanish"
assert result["relu"][0] > 0.1 * result["relu"][-1], "expected the ReLU net's gradient to survive"
