"""Gradients of a Cell that returns a dict: MindSpore differentiates it as the tuple of its values
and takes a dict sens the same way (core/python/bind/grad_adapter.cpp)."""
import numpy as np

from mindspore import Tensor, nn, ops

from _check import close

x_np = np.array([[0.8, -0.6, 0.2], [1.8, 1.3, -1.1]], np.float32)
x = Tensor(x_np)


class DictNet(nn.Cell):
    def construct(self, a):
        return {"relu": ops.relu(a), "square": a * a}


net = DictNet()
out = net(x)
assert isinstance(out, dict) and sorted(out) == ["relu", "square"]
# No sens: every value's gradient with ones.
close(ops.GradOperation()(net)(x), (x_np > 0) + 2 * x_np)
# A dict sens, matched to the values in order.
sens = {"relu": Tensor(np.full((2, 3), 2.0, np.float32)), "square": Tensor(np.full((2, 3), 0.5, np.float32))}
close(ops.GradOperation(sens_param=True)(net)(x, sens), 2.0 * (x_np > 0) + 0.5 * 2 * x_np)
