"""nn.AdamOffload: Adam's update without the Nesterov step (MindSpore's AdamNoUpdateParam), with
weight decay on the gradients, groups and Adam's argument checks."""
import numpy as np

import mindspore.nn as nn
from mindspore import Parameter, Tensor
from mindspore.nn.optim import AdamOffload

from _check import close, raises

assert nn.AdamOffload is AdamOffload and isinstance(AdamOffload([Parameter(Tensor(np.ones(2, np.float32)))]),
                                                    nn.Optimizer)
w0 = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
grads = [np.array([[0.1, -0.3], [0.2, 0.4]], np.float32), np.array([[-0.2, 0.1], [0.05, -0.4]], np.float32)]


def reference(lr, b1, b2, eps, wd):
    w, m, v = w0.astype(np.float64), 0.0, 0.0
    for t, g in enumerate(grads, 1):
        g = g + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    return w


for nesterov in (False, True):
    p = Parameter(Tensor(w0), name="w")
    opt = AdamOffload([p], 0.05, 0.8, 0.95, 1e-6, use_nesterov=nesterov, weight_decay=0.1)
    for g in grads:
        opt((Tensor(g),))
    close(p, reference(0.05, 0.8, 0.95, 1e-6, 0.1).astype(np.float32), rtol=1e-5)

raises(TypeError, AdamOffload, [Parameter(Tensor(w0), name="w")], beta1=1, match="'beta1' should be 'float'")
raises(TypeError, AdamOffload, [Parameter(Tensor(w0), name="w")], use_nesterov=1, match="use_nesterov")
