"""A float16 network trained for three steps whose values stay within float16's range: ReLU
zeros (zero in float32 too) and rounded values are not overflows, so the watchpoint does not
stop."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 2)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


ms.set_seed(0)
net = Net()
net.to_float(ms.float16)
loss_fn = nn.MSELoss()
opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
x = Tensor(np.array([[0.5, -1.0, 2.0, 1.0], [1.5, 0.25, -0.5, 1.0]], np.float32))
y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))


def forward(data, label):
    return loss_fn(ops.cast(net(data), ms.float32), label) * 1024.0


grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
for _ in range(3):
    loss, grads = grad_fn(x, y)
    opt(tuple(g / 1024.0 for g in grads))
print(loss)
