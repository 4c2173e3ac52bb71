"""ops.jet and ops.derivative (ops/_transforms_taylor.py): the 1st to n-th derivatives of fn along
a path whose input derivatives are `series`, checked against closed forms."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops.functional import derivative, jet

from _check import close, raises

x0 = np.array([[1.0, 2.0], [3.0, -0.5]], np.float32)
a = np.array([[1.0, 0.5], [2.0, 1.0]], np.float32)
b = np.array([[0.0, 1.0], [-1.0, 3.0]], np.float32)
c = np.array([[2.0, 0.0], [1.0, 1.0]], np.float32)

# f = x^3 along x(t) with x' = a, x'' = b, x''' = c (Faa di Bruno).
out, series = jet(lambda x: x * x * x, Tensor(x0), Tensor(np.stack([a, b, c])))
close(out, x0 ** 3)
assert tuple(series.shape) == (3, 2, 2)
close(series[0], 3 * x0 ** 2 * a)
close(series[1], 6 * x0 * a ** 2 + 3 * x0 ** 2 * b, rtol=1e-5)
close(series[2], 6 * a ** 3 + 18 * x0 * a * b + 3 * x0 ** 2 * c, rtol=1e-5)


# Two inputs: f = sin(x) * y with series (1, 0) for both; MindSpore's Cell form.
class Net(nn.Cell):
    def construct(self, x, y):
        return ops.sin(x) * y


p = (Tensor(np.array([0.3, 1.2], np.float32)), Tensor(np.array([2.0, -1.0], np.float32)))
ones_zero = Tensor(np.array([[1.0, 1.0], [0.0, 0.0]], np.float32))
out, series = jet(Net(), p, (ones_zero, ones_zero))
xs, ys = p[0].asnumpy(), p[1].asnumpy()
close(out, np.sin(xs) * ys)
close(series[0], np.cos(xs) * ys + np.sin(xs))
close(series[1], -np.sin(xs) * ys + 2 * np.cos(xs), rtol=1e-5)

# derivative: the order-th derivative alone, series (1, 0, ...) implied; int primals as Float32.
out, third = derivative(lambda x: ops.exp(ops.sin(x)), Tensor(x0), 3)
s, co = np.sin(x0), np.cos(x0)
close(third, np.exp(s) * (co ** 3 - 3 * s * co - co), rtol=1e-4, atol=1e-5)
out, first = derivative(lambda x: x * x, Tensor(np.array([3, 4], np.int32)), 1)
assert first.dtype == ms.float32
close(first, [6.0, 8.0])

raises(TypeError, jet, Net(), [p[0]], ones_zero)
raises(TypeError, jet, Net(), p, ones_zero)
raises(ValueError, derivative, Net(), p, 0)
