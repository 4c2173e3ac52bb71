"""A tensor stored to a Cell attribute that is not a Parameter inside compiled code has no
gradient, as MindSpore's graph mode runs such a store through the interpreter (Note [Cell
attributes written in compiled code], core/python/jit/jit_compiler.cpp); the expression keeps its
gradient where it is used directly, and PyNative is unchanged."""
import numpy as np

from mindspore import Tensor, context, nn, ops

from _check import close


class Store(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = 4.0

    def construct(self, x):
        self.p = self.p + x
        return self.p


class StoreAndUse(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = None

    def construct(self, x):
        y = x * 3
        self.last = y
        return y + self.last   # y keeps its gradient (3); the stored copy adds none


x = Tensor(np.array([2.0], np.float32))
grad = ops.grad

context.set_context(mode=context.PYNATIVE_MODE)
close(grad(Store())(x), [1.0])
close(grad(StoreAndUse())(x), [6.0])

context.set_context(mode=context.GRAPH_MODE)
close(Store()(x), [6.0])
close(grad(Store())(x), [0.0])
close(StoreAndUse()(x), [12.0])
close(grad(StoreAndUse())(x), [3.0])
