"""A NaN from log(0): how one zero probability poisons the loss and every gradient.

What it teaches: a hand-written cross-entropy `-sum(y * log(p))` works until a probability
underflows to exactly 0: log(0) = -inf, 0 * -inf = NaN, and the NaN flows into the loss and,
through the backward pass, into every gradient. The fix is to work in log space
(ops.log_softmax) or to clip p away from 0. Run it in the debugger with a NaN watchpoint: the
root-cause search names the Log node and this file's line.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(7)
net = nn.Dense(4, 3)
# Large inputs make softmax saturate: one probability underflows to exactly zero in float32.
x = Tensor(np.array([[900.0, -900.0, 400.0, -400.0], [1.0, 2.0, 3.0, 4.0]], np.float32))
y = Tensor(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32))


def naive_loss(data, onehot):
    p = ops.softmax(net(data), axis=-1)
    return -(onehot * ops.log(p)).sum() / data.shape[0]


def stable_loss(data, onehot):
    return -(onehot * ops.log_softmax(net(data), axis=-1)).sum() / data.shape[0]


params = net.trainable_params()
for name, fn in [("naive  -sum(y*log(softmax))", naive_loss), ("stable -sum(y*log_softmax)", stable_loss)]:
    loss, grads = ms.value_and_grad(fn, None, params)(x, y)
    nan_grads = [p.name for p, g in zip(params, grads) if np.isnan(g.asnumpy()).any()]
    print(f"{name}: loss {float(loss):.4f}   gradients with NaN: {nan_grads or 'none'}")
