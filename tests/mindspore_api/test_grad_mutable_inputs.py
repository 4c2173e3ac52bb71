"""GradOperation over mutable tuple, list and dict inputs (ops/_grad_mutable.py): a marked
container's gradient has its nesting, zeros for an unused leaf; a plain container stays a
constant with no gradient."""
import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, mutable, nn, ops
from mindspore.ops import composite as C

from _check import close

a_np = np.array([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], np.float32)
b_np = np.array([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], np.float32)
ones = np.ones((2, 3), np.float32)
# d sum(A @ B) / dA = 1 @ B^T, / dB = A^T @ 1.
dA = ones @ b_np.T
dB = a_np.T @ ones


def a():
    return Tensor(a_np)


def b():
    return Tensor(b_np)


def matmul_first_two(t):
    return ops.matmul(t[0], t[1])


# A plain tuple is a constant; the marked one gets one gradient per leaf.
assert ops.GradOperation()(matmul_first_two)((a(), b())) == ()
g = ops.GradOperation()(matmul_first_two)(mutable((a(), b())))
assert isinstance(g, tuple) and len(g) == 2
close(g[0], dA)
close(g[1], dB)
g = C.GradOperation()(matmul_first_two)(mutable([a(), b()]))
assert isinstance(g, tuple)
close(g[0], dA)
close(g[1], dB)

# Nested: the unused leaf gets zeros; a dict's gradient is its values' in order.
g = ops.GradOperation()(lambda t: ops.matmul(t[0][0], t[1]))(mutable(((a(), a()), b())))
close(g[0][0], dA)
close(g[0][1], np.zeros((2, 3), np.float32))
close(g[1], dB)
g = ops.GradOperation()(lambda t: ops.matmul(t["x"], t["y"]))(mutable({"x": a(), "y": b()}))
assert isinstance(g, tuple)
close(g[0], dA)
close(g[1], dB)


# get_all with a Tensor beside a marked container; get_by_list on a Cell with a Parameter.
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.z = Parameter(Tensor(np.array([2.0], np.float32)), name="z")

    def construct(self, s, t):
        return ops.matmul(t[0] * self.z * s, t[1])


net = Net()
s = Tensor(np.array([3.0], np.float32))
inputs, weights = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(
    s, mutable((a(), b())))
assert len(inputs) == 2 and len(inputs[1]) == 2
close(inputs[0], [np.sum(dA * a_np) * 2.0])
close(inputs[1][0], dA * 6.0)
close(inputs[1][1], a_np.T @ ones * 6.0)
close(weights[0], [np.sum(dA * a_np) * 3.0])
only_weights = ops.GradOperation(get_by_list=True)(net, net.trainable_params())(s, mutable((a(), b())))
close(only_weights[0], [np.sum(dA * a_np) * 3.0])

# sens_param: the last argument is the sens, never flattened.
sens = Tensor(np.full((2, 3), 2.0, np.float32))
g = ops.GradOperation(sens_param=True)(matmul_first_two)(mutable((a(), b())), sens)
close(g[0], 2.0 * dA)
close(g[1], 2.0 * dB)
assert isinstance(ops.GradOperation(), ms.ops.GradOperation)

# mindspore.grad / value_and_grad: a marked container at grad_position gets a nested gradient.
s3 = Tensor(np.array([3.0], np.float32))


def scaled(k, t):
    return (ops.matmul(t[0], t[1]) * k).sum()


g = ms.grad(scaled, 1)(s3, mutable((a(), b())))
close(g[0], 3.0 * dA)
close(g[1], 3.0 * dB)
gk, gt = ops.grad(scaled, (0, 1))(s3, mutable([a(), b()]))
close(gk, [np.sum(a_np @ b_np)])
close(gt[1], 3.0 * dB)
value, g = ms.value_and_grad(scaled, 1)(s3, mutable((a(), b())))
close(value, 3.0 * np.sum(a_np @ b_np))
close(g[0], 3.0 * dA)
g, aux = ms.grad(lambda k, t: (scaled(k, (t["x"], t["y"])), k * 2), 1, has_aux=True)(
    s3, mutable({"x": a(), "y": b()}))
close(g[0], 3.0 * dA)
close(aux[0], [6.0])
assert ms.grad(scaled, 1)(s3, (a(), b())) == ()
