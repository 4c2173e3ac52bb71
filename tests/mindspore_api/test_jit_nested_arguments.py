"""Tensors inside tuple and list arguments, and keyword tensor arguments, are inputs of a compiled
function (Note [Tensors inside arguments], jit_function.cpp): every call computes with its own
values, never with those of the call that compiled the graph."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import close

ms.set_context(mode=ms.GRAPH_MODE)


def t(*values):
    return Tensor(np.array(values, np.float32))


class Twice(nn.Cell):
    def construct(self, xs):
        return tuple(x * 2 for x in xs)


class Weighted(nn.Cell):
    def construct(self, pair, nested, scale=None):
        return (pair[0] + pair[1]) * nested[0][1] + scale


twice = Twice()
weighted = Weighted()
for v in (1.0, 5.0, -2.0):
    (out,) = twice((t(v),))
    close(out, [2 * v])
    got = weighted([t(v), t(1.0)], ((t(0.0), t(v)),), scale=t(10.0 * v))
    close(got, [(v + 1.0) * v + 10.0 * v])
# Another nesting or shape compiles again and still computes with its own values.
close(twice((t(1.0, 2.0), t(3.0)))[0], [2.0, 4.0])
close(twice((t(1.0, 2.0), t(3.0)))[1], [6.0])


@ms.jit
def dot(pair, *, bias):
    return ops.reduce_sum(pair[0] * pair[1]) + bias


for k in (1.0, 3.0):
    close(dot((t(k, 2.0), t(3.0, k)), bias=t(k)), [3.0 * k + 2.0 * k + k])

# Gradients through a compiled Cell reach tensors inside its tuple argument.
grads = ms.grad(lambda a, b: weighted((a, b), ((a, b),), scale=t(0.0)).sum(), (0, 1))(t(2.0), t(3.0))
# f = (a + b) * b: df/da = b, df/db = a + 2b
close(grads[0], [3.0])
close(grads[1], [8.0])
ms.set_context(mode=ms.PYNATIVE_MODE)
print("ok")
