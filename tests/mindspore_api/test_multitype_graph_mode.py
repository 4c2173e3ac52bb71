"""A MultitypeFuncGraph's registered function compiles from its source in graph mode, as MindSpore
compiles it: an `if` on a tensor inside it becomes control flow (ops/composite/base.py)."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn, ops
from mindspore.ops import composite as C

from _check import close

pick = C.MultitypeFuncGraph("pick")


@pick.register("Tensor", "Tuple")
def _pick(x, pair):
    if x > 0:
        return pair[0]
    return pair[1]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap(pick)

    def construct(self, x, y, z):
        return self.hyper_map((x, y), ((z, x), (y, z)))


grad_all = ops.GradOperation(get_all=True)
for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
    context.set_context(mode=mode)
    x = Tensor(np.array(2.0, np.float32))
    y = Tensor(np.array(-3.0, np.float32))
    z = Tensor(np.array(5.0, np.float32))
    net = Net()
    out = net(x, y, z)
    close(out[0], 5.0)   # x > 0: z
    close(out[1], 5.0)   # y < 0: z
    dx, dy, dz = grad_all(net)(x, y, z)
    close(dx, 0.0)
    close(dy, 0.0)
    close(dz, 2.0)
    # The other branch, with the same compiled function: x < 0 picks x itself.
    out = net(Tensor(np.array(-1.0, np.float32)), y, z)
    close(out[0], -1.0)
