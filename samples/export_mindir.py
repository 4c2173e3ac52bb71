"""Train, export to MINDIR, load and run: the end of a training script that ships its model.

What it teaches: `mindspore.export` writes the compiled graph and the trained Parameters to a
`.mindir` file (MindSpore's deployment format, which MindSpore Lite and MindSpore's own `load` read);
`mindspore.load` + `nn.GraphCell` run that file without the Python class that defined the network,
and give the network's own outputs; `params_init` swaps weights by name (here: an earlier snapshot),
which is how a deployment updates a model without exporting it again.
"""
import os
import tempfile

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(1)
ms.set_context(mode=ms.GRAPH_MODE)


class XorNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(2, 8)
        self.act = nn.Tanh()
        self.fc2 = nn.Dense(8, 1)

    def construct(self, x):
        return ops.sigmoid(self.fc2(self.act(self.fc1(x))))


inputs = Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.float32))
targets = Tensor(np.array([[0], [1], [1], [0]], np.float32))
net = XorNet()
untrained = {p.name: Tensor(p.asnumpy()) for p in net.trainable_params()}
optimizer = nn.Adam(net.trainable_params(), learning_rate=0.05)
grad_fn = ms.value_and_grad(lambda x, y: ops.binary_cross_entropy(net(x), y), None, net.trainable_params())
for step in range(300):
    loss, grads = grad_fn(inputs, targets)
    optimizer(grads)
print(f"trained: loss {float(loss):.5f}")

path = os.path.join(tempfile.mkdtemp(), "xor")
ms.export(net, inputs, file_name=path, file_format="MINDIR")  # writes xor.mindir
print(f"exported {path}.mindir ({os.path.getsize(path + '.mindir')} bytes)")

deployed = nn.GraphCell(ms.load(path + ".mindir"))
predictions = deployed(inputs).asnumpy().ravel()
print("deployed XOR predictions:", [f"{p:.3f}" for p in predictions])
assert np.array_equal(predictions, net(inputs).asnumpy().ravel()), "the file computes what the network does"
assert (np.round(predictions) == [0, 1, 1, 0]).all(), "XOR was not learned"

before = nn.GraphCell(ms.load(path + ".mindir"), params_init=untrained)(inputs).asnumpy().ravel()
print("same file, untrained weights:", [f"{p:.3f}" for p in before])
