"""Dynamic-shape placeholders (Tensor(shape=[None, ...], dtype=...)) and Cell.set_inputs: the
placeholder reports MindSpore's -1 / -2 dims and holds no values; a Cell checks each call against
the inputs set_inputs described, in PyNative and graph mode."""
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import raises, close

p = Tensor(shape=[None, 3], dtype=ms.float32)
assert p.shape == (-1, 3) and p.dtype == ms.float32
assert Tensor(dtype=ms.int32).shape == (-2,)
assert "placeholder" in repr(p) and "placeholder" in str(p)
raises(ValueError, Tensor)  # neither data, shape nor dtype
raises(ValueError, ops.add, p, p, match="for 'Add', input 'x' is a dynamic-shape placeholder")
raises(ValueError, p.asnumpy, match="placeholder")
raises(ValueError, Tensor, shape=[None, 2], dtype=ms.float32, init="ones", match="cannot take 'init'")
raises(ValueError, ms.jit(lambda x: x + 1), p, match="argument 0 is a dynamic-shape placeholder")


class Twice(nn.Cell):
    def construct(self, x, y):
        return x * 2 + y


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = Twice()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32), Tensor(dtype=ms.float32))
    assert len(net.get_inputs()) == 2
    for rows in (2, 5):  # every batch size the description allows
        x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        close(net(Tensor(x), Tensor(np.float32(1))), x * 2 + 1)
    raises(ValueError, net, Tensor(np.ones((2, 4), np.float32)), Tensor(np.float32(1)),
           match="the shape of the 0th input set by set_inputs")
    raises(ValueError, net, Tensor(np.ones(3, np.float32)), Tensor(np.float32(1)),
           match="got 2 and 1")
    raises(TypeError, net, Tensor(np.ones((2, 3), np.int32)), Tensor(np.float32(1)),
           match="but got Float32 and Int32")
    raises(ValueError, net, Tensor(np.ones((2, 3), np.float32)), match="described 2 inputs")
    # Without a description nothing is checked.
    close(Twice()(Tensor(np.ones((1, 4), np.float32)), Tensor(np.float32(0))), np.full((1, 4), 2.0))
ms.set_context(mode=ms.PYNATIVE_MODE)
