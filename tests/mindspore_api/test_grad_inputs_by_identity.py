"""PyNative gradients know an input by its Tensor object, as MindSpore's engine does (Note [Inputs by
identity], core/api/inputs_by_identity.h): one Tensor passed at several positions is one input, its
whole gradient goes to the last of them and the earlier ones get zeros. Graph mode keeps one
parameter per position. A Cell whose hooks get that Tensor twice differentiates like the same
computation written without hooks (MindSpore's test_pynative_forward_hook_multi_inp), and its hooks
and construct get the caller's Python objects (Note [Python identity in hooked calls])."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import close

x = Tensor(np.array([1.0, 2.0], np.float32))
x_copy = Tensor(np.array([1.0, 2.0], np.float32))


def f(a, b):
    return (a * a * b).sum()


# f(x, x) = sum(x^3): the whole derivative 3x^2 at the last position, zeros before it
g0, g1 = ms.grad(f, grad_position=(0, 1))(x, x)
close(g0, [0.0, 0.0])
close(g1, [3.0, 12.0])
close(ms.grad(f, grad_position=0)(x, x), [0.0, 0.0])
close(ms.grad(f, grad_position=1)(x, x), [3.0, 12.0])
# a @jit function differentiated in PyNative is one op of the PyNative tape: by identity too
jit_f = ms.jit(f)
g0, g1 = ms.grad(jit_f, grad_position=(0, 1))(x, x)
close(g0, [0.0, 0.0])
close(g1, [3.0, 12.0])
close(ms.grad(jit_f, grad_position=0)(x, x), [0.0, 0.0])
close(ms.grad(jit_f, grad_position=1)(x, x), [3.0, 12.0])
# equal values in two objects are two inputs: d/da = 2ab, d/db = a^2
g0, g1 = ms.grad(f, grad_position=(0, 1))(x, x_copy)
close(g0, [2.0, 8.0])
close(g1, [1.0, 4.0])
# three positions, one object: only the last one gets the gradient of sum(x^3 * 2)
g = ops.GradOperation(get_all=True)(lambda a, b, c: (a * b * c * 2).sum())(x, x, x)
close(g[0], [0.0, 0.0])
close(g[1], [0.0, 0.0])
close(g[2], [6.0, 24.0])


# A forward pre-hook given (x, x) returns (x + x, x * x): the same function of the one input as
# MatMul(x + x, x * y) with y = x, so both differentiate to the same (zeros, total).
def pre_hook(cell_id, inputs):
    return inputs[0] + inputs[1], inputs[0] * inputs[1]


class Mul(nn.Cell):
    def construct(self, a, b):
        return a * b


class Hooked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = Mul()
        self.mul.register_forward_pre_hook(pre_hook)

    def construct(self, a, b):
        return self.mul(a, b)


class Plain(nn.Cell):
    def construct(self, a, b):
        return (a + a) * (a * b)


grad_all = ops.GradOperation(get_all=True)
hooked = grad_all(Hooked())(x, x)
plain = grad_all(Plain())(x, x)
close(hooked[0], [0.0, 0.0])
close(hooked[1], [6.0, 24.0])  # d/dx 2x^3
close(plain[0], hooked[0])
close(plain[1], hooked[1])

# Python identity in a Cell with hooks: the pre-hook and construct get the caller's objects, the
# forward hook the object construct returned, and the caller the object the forward hook returned
made = {}


class Probe(nn.Cell):
    def construct(self, a, b):
        assert a is x and b is x
        made["construct"] = a * b
        return made["construct"]


def probe_pre(cell_id, inputs):
    assert inputs[0] is x and inputs[1] is x


def probe_post(cell_id, inputs, output):
    assert inputs[0] is x and output is made["construct"]
    made["hook"] = output * 2
    return made["hook"]


probe = Probe()
probe.register_forward_pre_hook(probe_pre)
probe.register_forward_hook(probe_post)
result = probe(x, x)
assert result is made["hook"]
close(result, [2.0, 8.0])

# a core Cell (ReLU) too; a forward hook returning None leaves the caller its output object
relu = nn.ReLU()
relu.register_forward_pre_hook(lambda cell_id, inputs: made.update(pre=inputs[0] is x))
relu.register_forward_hook(lambda cell_id, inputs, output: made.update(out=output))
result = relu(x)
assert made["pre"] and result is made["out"]
close(result, [1.0, 2.0])

# graph mode: one parameter per position, the partial derivatives
ms.set_context(mode=ms.GRAPH_MODE)
try:
    g0, g1 = ms.grad(f, grad_position=(0, 1))(x, x)
    close(g0, [2.0, 8.0])
    close(g1, [1.0, 4.0])
finally:
    ms.set_context(mode=ms.PYNATIVE_MODE)
