"""Linear regression: fit y = 2x + 3 with one Dense layer, MSE and plain SGD.

What it teaches: the MindSpore 2.x training loop in its smallest form. A forward function
computes the loss, `value_and_grad(forward_fn, None, weights)` returns the loss and one gradient
per weight (grad_position=None: no input gradients), and the optimizer applies the update.
Step through it to see the three phases of a step: forward, backward, update.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn

ms.set_seed(0)
rng = np.random.default_rng(0)
x = rng.uniform(-1.0, 1.0, (64, 1)).astype(np.float32)
y = (2.0 * x + 3.0 + rng.normal(0.0, 0.05, (64, 1))).astype(np.float32)
data, label = Tensor(x), Tensor(y)

net = nn.Dense(1, 1)
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)


def forward_fn(inputs, targets):
    return loss_fn(net(inputs), targets)


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())

for step in range(100):
    loss, grads = grad_fn(data, label)
    optimizer(grads)
    if step % 20 == 0 or step == 99:
        print(f"step {step:3d}  loss {float(loss):.6f}")

w = net.weight.asnumpy().item()
b = net.bias.asnumpy().item()
print(f"learned y = {w:.3f} x + {b:.3f}   (true: y = 2 x + 3)")
assert abs(w - 2.0) < 0.1 and abs(b - 3.0) < 0.1, "the fit did not converge"
