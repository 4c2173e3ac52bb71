"""Graph-mode pieces of the static graph and error analysis tutorials: a jit training step with
BCELoss and Adam (its elementwise kernels once depended on each other and the compile stopped)
gives PyNative's loss and parameters, and a construct written without self is refused as
MindSpore refuses it; print inside a compiled construct and Cell.compile (the computational
graph tutorial)."""
import contextlib
import io

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, raises


def make_step(jit):
    network = nn.Dense(10, 1, weight_init="ones", bias_init="zeros")
    loss_fn = nn.BCELoss()
    optimizer = nn.Adam(network.trainable_params(), 0.01)

    def forward_fn(data, label):
        return loss_fn(network(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return network, (ms.jit(train_step) if jit else train_step)


rng = np.random.RandomState(0)
data = Tensor(rng.rand(4, 10).astype(np.float32) * 0.05)  # outputs stay probabilities
label = Tensor(rng.randint(0, 2, (4, 1)).astype(np.float32))
eager_net, eager_step = make_step(False)
graph_net, graph_step = make_step(True)
for _ in range(3):
    close(graph_step(data, label), eager_step(data, label).asnumpy(), 1e-5, 1e-6)
close(graph_net.weight, eager_net.weight.asnumpy(), 1e-5, 1e-6)
assert ms._jit_stats()["compiles"] >= 1


class NoSelf(nn.Cell):
    def construct(*inputs):
        return inputs[0]


ms.set_context(mode=ms.GRAPH_MODE)
raises(TypeError, NoSelf(), Tensor(1.0), match="The function construct needs 0 positional argument")
ms.set_context(mode=ms.PYNATIVE_MODE)

# print in a compiled construct prints at every run, each argument on its own line and tensors as
# Tensor(...), as MindSpore's Print op; Cell.compile compiles ahead without running.

class Printing(nn.Cell):
    def construct(self, x):
        y = x * 2.0
        print("y is", y)
        return y + 1


ms.set_context(mode=ms.GRAPH_MODE)
net = Printing()
before = ms._jit_stats()
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    net.compile(Tensor(np.ones(2, np.float32)))
    assert printed.getvalue() == "", printed.getvalue()
    out = net(Tensor(np.array([1.0, 2.0], np.float32)))
    net(Tensor(np.array([3.0, 4.0], np.float32)))
after = ms._jit_stats()
ms.set_context(mode=ms.PYNATIVE_MODE)
close(out, np.array([3.0, 5.0], np.float32))
assert after["compiles"] == before["compiles"] + 1 and after["cache_hits"] == before["cache_hits"] + 2, after
assert printed.getvalue().splitlines() == [
    "y is", repr(Tensor(np.array([2.0, 4.0], np.float32))),
    "y is", repr(Tensor(np.array([6.0, 8.0], np.float32)))], printed.getvalue()

# The static graph syntax's dict and list additions: has_key, keys()/values() as tuples and
# items() as a list taken when called, and count of a tensor (a tensor: SequenceCount).
table = {"a": Tensor(np.array([1, 2, 3])), "b": Tensor(np.array([4, 5, 6]))}


@ms.jit
def dict_syntax(key):
    keys, values, items = table.keys(), table.values(), table.items()
    table.update({"a": Tensor(np.array([0, 0, 0]))})
    return keys, values, items, table.has_key("a"), table.has_key("z"), [1, 2, 3, 2].count(key)


keys, values, items, has_a, has_z, count = dict_syntax(Tensor(2))
assert keys == ("a", "b") and isinstance(values, tuple) and isinstance(items, list), (keys, values, items)
assert values[0].asnumpy().tolist() == [1, 2, 3] and items[0][1].asnumpy().tolist() == [1, 2, 3]
assert has_a is True and has_z is False, (has_a, has_z)
assert isinstance(count, Tensor) and int(count) == 2, count

# jit_class (the advanced static graph tutorial): not for Cells; an instance without __call__
# called in graph mode is MindSpore's ValueError.
def jit_class_on_cell():
    @ms.jit_class
    class Net(nn.Cell):
        def construct(self, x):
            return x


raises(TypeError, jit_class_on_cell, match="cannot be used for nn.Cell: Net<>")


@ms.jit_class
class Holder:
    def __init__(self, number):
        self.number = number


class CallsHolder(nn.Cell):
    def construct(self, x):
        return Holder(2)(x)


ms.set_context(mode=ms.GRAPH_MODE)
raises(ValueError, CallsHolder(), Tensor(1), match="MsClassObject: 'Holder' has no __call__ function")
ms.set_context(mode=ms.PYNATIVE_MODE)
