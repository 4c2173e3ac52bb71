"""mindspore.common.api._cell_graph_executor: compile(net, *inputs) builds the graph without running
it (in either context mode) and reports whether it compiled now; calling the executor runs the
Cell as a graph; the context mode is left as it was."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.common.api import _cell_graph_executor

from _check import close, raises

ms.set_context(mode=ms.PYNATIVE_MODE)
x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
y = Tensor(np.zeros((4, 2), np.float32))

# A training step compiled is not run: the weights keep their values.
net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
phase, fresh = _cell_graph_executor.compile(step, x, y)
assert isinstance(phase, str) and phase.startswith("predict.") and fresh
close(net.weight, np.ones((2, 3), np.float32))
assert ms.get_context("mode") == ms.PYNATIVE_MODE
assert _cell_graph_executor.compile(step, x, y)[1] is False  # the same inputs: compiled already
assert _cell_graph_executor.compile(step, x, y, phase="train")[0].startswith("train.")

# Running through the executor gives what PyNative gives.
dense = nn.Dense(3, 2)
close(_cell_graph_executor(dense, x), dense(x).asnumpy())


class NeedsFive(nn.Cell):
    def construct(self, a):
        if a.shape[0] != 5:
            raise ValueError("For 'NeedsFive', the first dimension must be 5, but got %d." % a.shape[0])
        return a


# A shape check in construct fails at compile time, as MindSpore's graph compile does.
raises(ValueError, _cell_graph_executor.compile, NeedsFive(), x, match="must be 5, but got 4")
assert ms.get_context("mode") == ms.PYNATIVE_MODE
raises(AttributeError, _cell_graph_executor.compile, object(), x, match="dose not have method construct")
