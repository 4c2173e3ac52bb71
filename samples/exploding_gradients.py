"""Exploding gradients: a deep stack of Dense layers initialised too large.

What it teaches: with weights drawn from Normal(sigma=1.0) (variance 16 times He's 2/fan_in for
this width) every layer multiplies the activations, so the loss and every gradient are around
1e10, and the first SGD step overshoots so far that the next loss overflows to inf/NaN. The same
net with HeUniform initialisation has gradient norms of a few units and trains. Watch the
gradient-norm chart, or set a gradient-exploding watchpoint (norm above 1e3).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.common.initializer import HeUniform, Normal

DEPTH = 8
WIDTH = 32


def make_net(init):
    layers = []
    for _ in range(DEPTH):
        layers += [nn.Dense(WIDTH, WIDTH, weight_init=init), nn.ReLU()]
    layers.append(nn.Dense(WIDTH, 1, weight_init=init))
    return nn.SequentialCell(layers)


ms.set_seed(5)
rng = np.random.default_rng(5)
x = Tensor(rng.normal(size=(16, WIDTH)).astype(np.float32))
y = Tensor(rng.normal(size=(16, 1)).astype(np.float32))
loss_fn = nn.MSELoss()

for label, init in [("Normal(sigma=1.0)", Normal(sigma=1.0)), ("HeUniform()", HeUniform())]:
    net = make_net(init)
    weights = [p for p in net.trainable_params() if p.name.endswith("weight")]
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, weights)
    loss, grads = grad_fn(x, y)
    norms = [float(ops.norm(g)) for g in grads]
    print(f"{label:18s} loss {float(loss):12.4g}   |grad| first layer {norms[0]:10.4g}   "
          f"last layer {norms[-1]:10.4g}   ratio {norms[0] / max(norms[-1], 1e-30):8.3g}")

    optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)
    all_grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, net.trainable_params())
    for step in range(5):
        loss, grads = all_grad_fn(x, y)
        optimizer(grads)
        print(f"    step {step}  loss {float(loss):12.4g}")
