"""The grad-only fallback: what users write when value_and_grad is missing.

What it teaches: on MindSpore 1.8-1.10 `mindspore.value_and_grad` does not exist at the top level,
and many scripts fall back to `loss = forward_fn(...)` followed by `grads = grad(forward_fn)(...)`.
That works, but the forward pass runs twice per step (once for the value, once inside grad): twice
the cost, and anything random in the forward (Dropout) differs between the two runs. Step through
it and count the forward nodes per step; run it with `gradstep run --api 1.10` as well.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(3)
rng = np.random.default_rng(3)
x = Tensor(rng.normal(size=(32, 10)).astype(np.float32))
y = Tensor((rng.normal(size=(32, 1)) > 0).astype(np.float32))

net = nn.SequentialCell([nn.Dense(10, 16), nn.ReLU(), nn.Dense(16, 1)])
loss_fn = nn.BCEWithLogitsLoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.5)


def forward_fn(data, label):
    return loss_fn(net(data), label)


# The fallback exactly as written in the wild: ops.grad exists on every version from 1.8 on.
grad_fn = ops.grad(forward_fn, grad_position=None, weights=net.trainable_params())

first = None
for step in range(50):
    loss = forward_fn(x, y)  # forward #1: the value
    grads = grad_fn(x, y)    # forward #2 and the backward pass
    optimizer(grads)
    first = float(loss) if first is None else first
    if step % 10 == 0 or step == 49:
        print(f"step {step:2d}  loss {float(loss):.5f}")
assert float(loss) < first, "the loss should go down"
