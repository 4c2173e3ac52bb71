"""Forward overflow: a float16 Dense whose output (12) goes through exp, and exp(12) = 162754.8
is past float16's largest value (65504): inf in float16, finite in float32."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        h = self.dense(x)
        return ops.exp(h)  # line 16


net = Net()
net.to_float(ms.float16)
out = net(Tensor(np.full((1, 4), 3.0, np.float32)))
print(out)
