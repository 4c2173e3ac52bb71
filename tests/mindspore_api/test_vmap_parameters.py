"""Parameters mapped by vmap are updated in place slice by slice (ops.assign, optimizer primitives),
as MindSpore's vmap does; the Adam primitive (mindspore.ops.operations.Adam)."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor, ops
from mindspore.ops import operations as P

from _check import close, raises

rng = np.random.RandomState(3)


def numpy_adam(var, m, v, grad, beta1_power, beta2_power, lr, beta1, beta2, eps, nesterov=False):
    m = m + (grad - m) * (1 - beta1)
    v = v + (grad * grad - v) * (1 - beta2)
    step = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    direction = m * beta1 + grad * (1 - beta1) if nesterov else m
    return var - step * direction / (np.sqrt(v) + eps), m, v


def scalars():
    return [Tensor(x, ms.float32) for x in (0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8)]


# The primitive: var, m and v updated in place and returned; Nesterov's direction.
for nesterov in (False, True):
    var0, m0, v0, g = (rng.rand(3, 4).astype(np.float32) for _ in range(4))
    var, m, v = Parameter(Tensor(var0), name="var"), Parameter(Tensor(m0), name="m"), Parameter(Tensor(v0), name="v")
    out = P.Adam(use_nesterov=nesterov)(var, m, v, *scalars(), Tensor(g))
    want = numpy_adam(var0, m0, v0, g, 0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8, nesterov)
    for got, param, expected in zip(out, (var, m, v), want):
        close(got, expected, rtol=1e-5, atol=1e-6)
        close(param, expected, rtol=1e-5, atol=1e-6)
    assert not np.allclose(var.asnumpy(), var0)

raises(TypeError, P.Adam(), Tensor(np.ones(2, np.float32)), Parameter(Tensor(np.ones(2, np.float32)), name="m2"),
       Parameter(Tensor(np.ones(2, np.float32)), name="v2"), *scalars(), Tensor(np.ones(2, np.float32)),
       match="For 'Adam', the 'var' must be a Parameter")
raises(ValueError, P.Adam(), Parameter(Tensor(np.ones(2, np.float32)), name="a"),
       Parameter(Tensor(np.ones(2, np.float32)), name="b"), Parameter(Tensor(np.ones(2, np.float32)), name="c"),
       *scalars(), Tensor(np.ones(3, np.float32)), match="For 'Adam', the shape of 'gradient'")
raises(TypeError, P.Adam, use_nesterov=1, match="use_nesterov")


# vmap over a Parameter: each element's assign writes its slice; an axis other than 0 too.
w0 = np.arange(12, dtype=np.float32).reshape(3, 4)
w = Parameter(Tensor(w0), name="w")
ops.vmap(lambda p, x: ops.assign(p, p * x), in_axes=(0, 0))(w, Tensor(np.array([1., 2., 3.], np.float32)))
close(w, w0 * np.array([[1.], [2.], [3.]], np.float32))
w.set_data(Tensor(w0))
ops.vmap(lambda p: ops.assign_add(p, ops.ones_like(p)), in_axes=1)(w)
close(w, w0 + 1)

# Only one element writes: the others keep their values.
w.set_data(Tensor(w0))
elements = iter(range(3))


def write_first(p):
    if next(elements) == 0:
        ops.assign(p, ops.zeros_like(p))
    return p.sum()


close(ops.vmap(write_first)(w), w0.sum(axis=1))
close(w, np.concatenate([np.zeros((1, 4), np.float32), w0[1:]]))

# A Parameter vmap only reads is left alone and its gradient flows through the slices.
w.set_data(Tensor(w0))
x = Tensor(np.ones((3, 4), np.float32))
grad = ms.grad(lambda x: ops.vmap(lambda p, xi: (p * xi * xi).sum(), in_axes=(0, 0))(w, x).sum(), None, [w])(x)
close(grad[0], np.ones((3, 4), np.float32))
close(w, w0)


# MindSpore's own case (test_adam_op.py): P.Adam vmapped over batched Parameters, in a graph-mode
# Cell and in PyNative, against NumPy.
class AdamVmap(nn.Cell):
    def __init__(self, var, m, v):
        super().__init__()
        self.var, self.m, self.v = (Parameter(Tensor(a), name=n) for a, n in ((var, "var"), (m, "m"), (v, "v")))
        adam = P.Adam()
        self.vmap_adam = ops.vmap(lambda *a: adam(*a), in_axes=(0, 0, 0, None, None, None, None, None, None, 0))

    def construct(self, b1p, b2p, lr, b1, b2, eps, g):
        return self.vmap_adam(self.var, self.m, self.v, b1p, b2p, lr, b1, b2, eps, g)


shape = (4, 3, 5)
var0, m0, g = (rng.rand(*shape).astype(np.float32) for _ in range(3))
v0 = np.abs(rng.rand(*shape).astype(np.float32))
want = numpy_adam(var0, m0, v0, g, 0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8)
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = AdamVmap(var0, m0, v0)
    out = net(*scalars(), Tensor(g))
    for got, param, expected in zip(out, (net.var, net.m, net.v), want):
        close(got, expected, rtol=1e-5, atol=1e-6)
        close(param, expected, rtol=1e-5, atol=1e-6)
ms.set_context(mode=ms.PYNATIVE_MODE)
print("ok")
