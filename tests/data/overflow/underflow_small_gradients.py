"""Underflow: a float16 Dense fed inputs of about 1e-4 (normal float16 numbers). Its weight
gradient multiplies them by output gradients of about 1e-4, products of about 1e-8 that float16
(smallest value 6e-8) rounds to zero: the gradient vanishes without a loss scale."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

net = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
net.to_float(ms.float16)
loss_fn = nn.MSELoss()
x = Tensor(np.full((2, 4), 1e-4, np.float32))
y = Tensor(np.zeros((2, 3), np.float32))


def forward(data, label):
    out = ops.cast(net(data), ms.float32)  # line 17
    return loss_fn(out, label)


loss, grads = ms.value_and_grad(forward, None, net.trainable_params())(x, y)
print(loss, grads[0])
