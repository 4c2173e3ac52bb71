"""Random ops inside compiled code draw new numbers on every call, as MindSpore's kernels do and as
PyNative does (Note [Random ops in compiled graphs], graph/executor.h): a Dropout mask is not frozen
into the compiled graph, and the package's NumPy-drawn functions are not frozen into constants.
With mindspore.set_seed the sequence of draws repeats."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import close, raises

x = Tensor(np.ones((8, 16), np.float32))


def dropout_fn(v):
    return ops.dropout(v, p=0.5)


def draws(fn, calls=4):
    return [fn(x).asnumpy() for _ in range(calls)]


# ops.dropout inside @jit: one compilation, then cache hits, each call a new mask.
ms.set_seed(5)
before = ms._jit_stats()
compiled = ms.jit(dropout_fn)
first = draws(compiled)
after = ms._jit_stats()
assert after["compiles"] - before["compiles"] == 1, (before, after)
assert after["cache_hits"] - before["cache_hits"] == 3, (before, after)
for i in range(len(first)):
    assert set(np.unique(first[i])) <= {0.0, 2.0}, first[i]
    for j in range(i):
        assert not np.array_equal(first[i], first[j]), "calls %d and %d drew the same mask" % (j, i)
# About half the elements are kept on each call.
kept = np.mean([np.mean(m == 2.0) for m in first])
assert 0.35 < kept < 0.65, kept

# The same seed gives the same sequence again in a fresh compilation (the same function would hit
# the cache and continue its kernel's sequence, as a compiled MindSpore kernel keeps its state).
ms.set_seed(5)
again = draws(ms.jit(lambda v: ops.dropout(v, p=0.5)))
for a, b in zip(first, again):
    assert np.array_equal(a, b)


# nn.Dropout in a graph-mode Cell, and its gradient: the mask of each call scales that call's
# gradient (forward and backward agree within a call).
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.5)

    def construct(self, v):
        return (self.drop(v) * v).sum()


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net.set_train()
grad_fn = ms.value_and_grad(net)
v = Tensor(np.arange(1, 17, dtype=np.float32).reshape(2, 8))
grads = []
for _ in range(3):
    loss, g = grad_fn(v)
    g = g.asnumpy()
    # loss = sum(mask * 2 * v^2), d/dv = mask * 4 v: the kept elements are those with g != 0.
    mask = (g != 0).astype(np.float32)
    close(loss, np.sum(mask * 2.0 * v.asnumpy() ** 2))
    close(g, mask * 4.0 * v.asnumpy())
    grads.append(g)
assert not np.array_equal(grads[0], grads[1]) or not np.array_equal(grads[1], grads[2])
ms.set_context(mode=ms.PYNATIVE_MODE)

# The NumPy-drawn random functions inside @jit: new values on every call.
cases = {
    "standard_normal": lambda: ops.standard_normal((6,)),
    "uniform": lambda: ops.uniform((6,), Tensor(0.0), Tensor(1.0)),
    "rand": lambda: ops.rand(6),
    "randn": lambda: ops.randn(6),
    "randint": lambda: ops.randint(0, 1000, (6,)),
    "StandardNormal": lambda: ops.StandardNormal()((6,)),
    "UniformReal": lambda: ops.UniformReal()((6,)),
    "bernoulli": lambda: ops.bernoulli(Tensor(np.full((16,), 0.5, np.float32))),
    "randperm": lambda: ops.randperm(Tensor(8, ms.int32)),
}
for name, fn in cases.items():
    jitted = ms.jit(fn)
    a, b = jitted().asnumpy(), jitted().asnumpy()
    assert not np.array_equal(a, b), "%s drew the same values twice under @jit" % name

# Channel dropout: whole channels are zeroed or scaled by 1 / (1 - p).
ms.set_seed(1)
cube = Tensor(np.ones((4, 6, 3, 3), np.float32))
out = ops.dropout2d(cube, 0.5).asnumpy()
per_channel = out.reshape(4, 6, -1)
assert np.all((per_channel == 0.0).all(axis=2) | (per_channel == 2.0).all(axis=2)), out
assert np.array_equal(ops.dropout2d(cube, 0.5, training=False).asnumpy(), cube.asnumpy())
out1 = ops.dropout1d(Tensor(np.ones((5, 7), np.float32)), 0.5).asnumpy()
assert np.all((out1 == 0.0).all(axis=1) | (out1 == 2.0).all(axis=1)), out1
out3 = ops.dropout3d(Tensor(np.ones((2, 3, 2, 2, 2), np.float32)), 0.25).asnumpy().reshape(2, 3, -1)
assert np.all((out3 == 0.0).all(axis=2) | np.isclose(out3, 1 / 0.75).all(axis=2)), out3
raises(ValueError, ops.dropout2d, Tensor(np.ones((2, 3), np.float32)), 0.5,
       match="For 'dropout2d', the dimension of 'input' must be 4, but got 2.")
raises(ValueError, ops.dropout1d, Tensor(np.ones((2, 3), np.float32)), 1.5,
       match="For 'dropout1d', the 'p' must be a number in range [0, 1], but got 1.5.")
raises(TypeError, ops.dropout3d, Tensor(np.ones((1, 1, 1, 1, 1), np.float32)), "0.5",
       match="For 'dropout3d', the 'p' must be float, but got str.")
# nn.Dropout2d compiled in a graph-mode Cell also draws per call.
ms.set_context(mode=ms.GRAPH_MODE)
layer = nn.Dropout2d(p=0.5)
layer.set_train()
big = Tensor(np.ones((4, 32, 2, 2), np.float32))
assert not np.array_equal(layer(big).asnumpy(), layer(big).asnumpy())
ms.set_context(mode=ms.PYNATIVE_MODE)
print("ok")
