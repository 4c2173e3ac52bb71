# A Cell whose construct calls itself, under a raised recursion limit: a RecursionError, as
# python3 gives for the same code, never a crash.
# expect-exit: 1
# expect-output: RecursionError
import sys
import numpy as np
from mindspore import Tensor, nn

sys.setrecursionlimit(20000)


class Forever(nn.Cell):
    def construct(self, x):
        return self(x + 1)


Forever()(Tensor(np.ones(2, np.float32)))
