"""A version-compatibility wrapper: one script for MindSpore 1.10 and 2.x.

What it teaches: MindSpore 1.10 has value_and_grad only in mindspore.ops, 2.x also at the top
level (and `mindspore.value_and_grad` raises AttributeError on 1.10). The wrapper picks whichever
exists. Run it twice: `gradstep run samples/version_wrapper.py --api 1.10` and `--api 2.x`; the
losses and gradients are the same, only the path printed differs.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


def get_value_and_grad():
    if hasattr(ms, "value_and_grad"):
        return ms.value_and_grad, "mindspore.value_and_grad"
    return ops.value_and_grad, "mindspore.ops.value_and_grad"


value_and_grad, where = get_value_and_grad()
print(f"MindSpore API {ms.__version__}: using {where}")
try:
    ms.value_and_grad
except AttributeError as error:
    print(f"(as on 1.10: {error})")

ms.set_seed(4)
net = nn.Dense(3, 2)
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1)
x = Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
y = Tensor(np.ones((4, 2), np.float32))


def forward_fn(data, label):
    return loss_fn(net(data), label)


grad_fn = value_and_grad(forward_fn, None, net.trainable_params())
for step in range(5):
    loss, grads = grad_fn(x, y)
    optimizer(grads)
    print(f"step {step}  loss {float(loss):.6f}  |grad weight| {float(ops.norm(grads[0])):.6f}")
