"""GradOperation and its flags: get_all, get_by_list and sens_param.

What it teaches: the class API older MindSpore code uses. GradOperation() differentiates with
respect to the first input; get_all=True returns every input's gradient; get_by_list=True returns
the gradients of the weights passed in; sens_param=True takes the output's cotangent (the
"sensitivity") as an extra last argument instead of ones, which scales or weights the gradient.
"""
import numpy as np

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops
from mindspore.ops import GradOperation


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, -1.0], np.float32)), name="w")

    def construct(self, x, y):
        return x * y * self.w  # d/dx = y*w, d/dy = x*w, d/dw = x*y


net = Net()
x = Tensor(np.array([1.0, 3.0], np.float32))
y = Tensor(np.array([4.0, 5.0], np.float32))
weights = ParameterTuple(net.trainable_params())

dx = GradOperation()(net)(x, y)
print("GradOperation():             dx =", dx.asnumpy())
dx, dy = GradOperation(get_all=True)(net)(x, y)
print("get_all=True:                dx =", dx.asnumpy(), " dy =", dy.asnumpy())
(dw,) = GradOperation(get_by_list=True)(net, weights)(x, y)
print("get_by_list=True:            dw =", dw.asnumpy())

sens = Tensor(np.array([0.5, 10.0], np.float32))
dx_s, dy_s = GradOperation(get_all=True, sens_param=True)(net)(x, y, sens)
print("sens_param=True, sens", sens.asnumpy(), ": dx =", dx_s.asnumpy(), " dy =", dy_s.asnumpy())
(inputs, (dw_s,)) = GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, weights)(x, y, sens)
print("all three flags:             dw =", dw_s.asnumpy())

assert np.allclose(dx.asnumpy(), [8.0, -5.0]) and np.allclose(dy.asnumpy(), [2.0, -3.0])
assert np.allclose(dw.asnumpy(), [4.0, 15.0])
assert np.allclose(dx_s.asnumpy(), [4.0, -50.0]) and np.allclose(dw_s.asnumpy(), [2.0, 150.0])
