"""Backward overflow: a float16 network, its loss computed in float32 and multiplied by a loss
scale of 2**24 (DynamicLossScaleManager's start). The scaled float32 gradient of the loss passes
finite into the Cast back to the network's float16 and overflows there."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(0)
net = nn.Dense(4, 3)
net.to_float(ms.float16)
loss_fn = nn.MSELoss()
x = Tensor(np.array([[0.5, -1.0, 2.0, 1.0], [1.5, 0.25, -0.5, 1.0]], np.float32))
y = Tensor(np.zeros((2, 3), np.float32))


def scaled_loss(data, label):
    out = ops.cast(net(data), ms.float32)  # line 18
    return loss_fn(out, label) * 2.0 ** 24


grad_fn = ms.value_and_grad(scaled_loss, None, net.trainable_params())
loss, grads = grad_fn(x, y)
print(loss)
