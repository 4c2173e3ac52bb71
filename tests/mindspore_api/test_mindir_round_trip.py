"""mindspore.export writes a MINDIR file of the compiled graph; load + nn.GraphCell run it and give the
Cell's own outputs: a LeNet-like net (Parameters as initializers, a tuple result), a Cell whose
construct takes a gradient (its forward + backward graph), a Cell with a bprop, a ten-way Split. Also
params_init, the file's layout, the file name rules and the formats that are refused."""
import os
import tempfile

import numpy as np
import mindspore as ms
from mindspore import Tensor, export, load, nn, ops
from mindspore.ops import composite as C
from mindspore.train import export as train_export, load as train_load
from mindspore.train.serialization import export as serialization_export, load as serialization_load

from _check import raises

assert train_export is export is ms.export is serialization_export
assert train_load is load is ms.load is serialization_load
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)
folder = tempfile.mkdtemp()


class LeNetLike(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(4 * 3 * 3, 8)
        self.fc2 = nn.Dense(8, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        h = self.flatten(self.pool(self.relu(self.conv(x))))
        logits = self.fc2(self.relu(self.fc1(h)))
        return logits, ops.softmax(logits)


net = LeNetLike()
x = Tensor(np.random.RandomState(0).randn(2, 1, 8, 8).astype(np.float32))
expected = net(x)
export(net, x, file_name=os.path.join(folder, "lenet"), file_format="MINDIR")
path = os.path.join(folder, "lenet.mindir")
assert os.path.exists(path)  # ".mindir" appended, as MindSpore does
graph_cell = nn.GraphCell(load(path))
got = graph_cell(x)
assert isinstance(got, tuple) and len(got) == 2
for a, b in zip(got, expected):
    assert a.shape == b.shape and np.array_equal(a.asnumpy(), b.asnumpy())

# The file is MindSpore's layout: inputs with dtype and shape, Parameters as initializers holding their
# values, op nodes referring to primitives named as MindSpore's (REF::), constants as Constant nodes.
from mindspore.train._mindir_proto import model_class

model = model_class()()
with open(path, "rb") as f:
    model.ParseFromString(f.read())
graph = model.graph
assert [(i.name, list(i.tensor[0].dims), i.tensor[0].data_type) for i in graph.input] == \
    [("LeNetLike:arg0", [2, 1, 8, 8], 1)]  # data_type 1: FLOAT
stored = {p.name: np.frombuffer(p.raw_data, "<f4").reshape(tuple(p.dims)) for p in graph.parameter}
assert np.array_equal(stored["LeNetLike:fc2.bias"], net.fc2.bias.asnumpy())
assert len(stored) == 5, sorted(stored)  # Conv2d has no bias by default
primitives = {p.name: p.op_type for p in model.primitives}
assert {"Conv2D", "ReLU", "MaxPool", "MatMul", "BiasAdd", "Softmax", "MakeTuple"} <= set(primitives.values())
assert all(n.op_type == "Constant" or primitives[n.op_type[len("REF::"):]] for n in graph.node)
conv = next(p for p in model.primitives if p.op_type == "Conv2D")
assert {a.name: a.s for a in conv.attribute}["pad_mode"] == b"valid"
assert graph.output[0].name == "LeNetLike:result" and [list(t.dims) for t in graph.output[0].tensor] == [[2, 3], [2, 3]]

# params_init replaces a Parameter by name: zero fc2's bias and the logits shift by it.
names = [p.name for p in net.get_parameters()]
assert "fc2.bias" in names, names
shifted = nn.GraphCell(load(path), params_init={"fc2.bias": Tensor(np.zeros(3, np.float32))})
assert np.allclose(shifted(x)[0].asnumpy(), expected[0].asnumpy() - net.fc2.bias.asnumpy(), atol=1e-6)
raises(ValueError, nn.GraphCell, load(path), params_init={"nope": Tensor(np.zeros(3, np.float32))},
       match="'nope' in 'params_init' is not a parameter of the graph")
raises(ValueError, graph_cell, Tensor(np.ones((3, 1, 8, 8), np.float32)), match="input 0 must have shape [2, 1, 8, 8]")
raises(TypeError, graph_cell, x, x, match="takes 1 inputs, but got 2")


class Square(nn.Cell):
    def construct(self, a, b):
        return a * a * b


class SquareGrad(nn.Cell):
    def __init__(self, forward):
        super().__init__()
        self.forward = forward
        self.grad = C.GradOperation(get_all=True, sens_param=True)
        self.sens = Tensor(np.array([1.0, 0.5, 2.0], np.float32))

    def construct(self, a, b):
        return self.grad(self.forward)(a, b, self.sens)


a = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
b = Tensor(np.array([0.5, 4.0, -1.0], np.float32))
grad_net = SquareGrad(Square())
export(grad_net, a, b, file_name=os.path.join(folder, "grad.mindir"), file_format="MINDIR")
da, db = nn.GraphCell(load(os.path.join(folder, "grad.mindir")))(a, b)
sens = np.array([1.0, 0.5, 2.0], np.float32)
assert np.allclose(da.asnumpy(), 2 * a.asnumpy() * b.asnumpy() * sens)  # d(a*a*b)/da = 2ab
assert np.allclose(db.asnumpy(), a.asnumpy() ** 2 * sens)

raises(RuntimeError, export, net, x, file_name="m", file_format="AIR", match="Ascend")
raises(RuntimeError, export, net, x, file_name="m", file_format="ONNX", match="file_format='MINDIR'")
raises(ValueError, export, net, x, file_name="m", file_format="PB", match="'file_format' must be one of")
raises(TypeError, export, net, x, file_name=3, match="'file_name' must be str")
raises(TypeError, export, net, 3, file_name="m", match="must be Tensor")
raises(TypeError, nn.GraphCell, None, match="must be a FuncGraph loaded from MindIR")


# A GraphCell inside a Cell compiled in graph mode: the caller's body runs in Python (the loaded
# graph needs values), so the result is the graph's, not a trace of empty tensors.
class Outer(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x)[0] * 2


assert np.array_equal(Outer(graph_cell)(x).asnumpy(), expected[0].asnumpy() * 2)

# A primitive with ten outputs (Split), read back through TupleGetItem nodes.
class Pieces(nn.Cell):
    def construct(self, x):
        parts = ops.split(x, 1, axis=0)
        return parts[9] * 2 + parts[0]


rows = Tensor(np.arange(20, dtype=np.float32).reshape(10, 2))
export(Pieces(), rows, file_name=os.path.join(folder, "pieces"), file_format="MINDIR")
assert np.array_equal(nn.GraphCell(load(os.path.join(folder, "pieces.mindir")))(rows).asnumpy(), [[36.0, 39.0]])

# PyNative mode exports the same compiled graph.
ms.set_context(mode=ms.PYNATIVE_MODE)
dense = nn.Dense(3, 2)
v = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
export(dense, v, file_name=os.path.join(folder, "new", "dense"), file_format="MINDIR")  # the folder is made
assert np.array_equal(nn.GraphCell(load(os.path.join(folder, "new", "dense.mindir")))(v).asnumpy(), dense(v).asnumpy())


# A Cell with a bprop exports what its construct computes; a gradient through it, its bprop.
class Clipped(nn.Cell):
    def construct(self, x):
        return x * 3

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout, -1.0, 1.0),)


class Squared(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Clipped()

    def construct(self, x):
        return self.inner(x) * self.inner(x)


class SquaredGrad(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Squared()
        self.grad = C.GradOperation()

    def construct(self, x):
        return self.grad(self.net)(x)


ms.set_context(mode=ms.GRAPH_MODE)
u = Tensor(np.array([0.1, 1.0, -2.0], np.float32))
export(Squared(), u, file_name=os.path.join(folder, "squared"), file_format="MINDIR")
assert np.allclose(nn.GraphCell(load(os.path.join(folder, "squared.mindir")))(u).asnumpy(), [0.09, 9.0, 36.0])
export(SquaredGrad(), u, file_name=os.path.join(folder, "squared_grad"), file_format="MINDIR")
# d(c*c)/dc = 2c = (0.6, 6, -12), clipped by the bprop to (0.6, 1, -1) for each of the two uses.
assert np.allclose(nn.GraphCell(load(os.path.join(folder, "squared_grad.mindir")))(u).asnumpy(), [0.6, 2.0, -2.0])

# Control flow on tensor values compiles to If / While nodes, which the writer refuses by name.
class Branchy(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return x


raises(TypeError, export, Branchy(), v, file_name=os.path.join(folder, "branchy"), file_format="MINDIR",
       match="the graph of 'Branchy' holds a 'If' node")
assert not os.path.exists(os.path.join(folder, "branchy.mindir"))
