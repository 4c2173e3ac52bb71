"""Cell API added in Python: parameters_dict, apply, untrainable_params, insert_* checks, None
children, SequentialCell / CellList slicing, assignment, insert, extend, +=, and the wrappers
WithGradCell, ForwardValueAndGrad, WithEvalCell."""
from collections import OrderedDict

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, ParameterTuple, Tensor
from mindspore.common.initializer import One, initializer

from _check import close, raises


class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones(2, np.float32)), name="weight")
        self.frozen = Parameter(Tensor(np.zeros(2, np.float32)), name="frozen", requires_grad=False)

    def construct(self, x):
        return x * self.weight


class Net(nn.Cell):
    def __init__(self, prefix=True):
        super().__init__(auto_prefix=prefix)
        self.a = Leaf()
        self.b = Leaf()


n = Net()
assert list(n.parameters_dict().keys()) == ["a.weight", "a.frozen", "b.weight", "b.frozen"]
assert [p.name for p in n.untrainable_params()] == ["a.frozen", "b.frozen"]
assert list(Net(False).parameters_dict().keys()) == ["weight", "frozen"]

seen = []
assert n.apply(lambda c: seen.append(type(c).__name__)) is n
assert seen == ["Leaf", "Leaf", "Net"]

n.insert_child_to_cell("nothing", None)
assert n.nothing is None and [name for name, _ in n.cells_and_names()] == ["", "a", "b"]
raises(KeyError, n.insert_child_to_cell, "", Leaf(), match="can not be None or empty")
raises(KeyError, n.insert_child_to_cell, "x.y", Leaf(), match="can not contain '.'")
raises(TypeError, n.insert_child_to_cell, "p", Parameter(Tensor(np.ones(1)), name="p"), match="should be a Cell")
raises(KeyError, n.insert_param_to_cell, "", Parameter(Tensor(np.ones(1)), name="q"))
raises(KeyError, n.insert_param_to_cell, "a.b", Parameter(Tensor(np.ones(1)), name="q"), match="'.'")
raises(TypeError, n.insert_param_to_cell, "w", Tensor(np.ones(1)), match="must be 'Parameter'")
n.insert_param_to_cell("extra", Parameter(Tensor(np.ones(1)), name="extra"))
assert "extra" in n.parameters_dict()

n.update_parameters_name("net.")
assert "net.a.weight" in n.parameters_dict() and "net.extra" in n.parameters_dict()

# SequentialCell
d1, d2, r = nn.Dense(2, 2), nn.Dense(2, 2), nn.ReLU()
seq = nn.SequentialCell(OrderedDict([("fc1", d1), ("act", r)]))
assert not nn.SequentialCell() and bool(seq)
head = seq[0:1]
assert isinstance(head, nn.SequentialCell) and len(head) == 1 and head[0] is d1
assert seq[-1] is r and seq[:][1] is r
raises(TypeError, seq.__getitem__, 1.0, match="index should be int type or slice type")
raises(IndexError, seq.__getitem__, 5, match="For 'SequentialCell'")
seq.insert(1, d2)
assert len(seq) == 3 and seq[1] is d2 and seq[2] is r
xs = Tensor(np.array([[1.0, -2.0]], np.float32))
close(seq(xs), np.maximum((xs.asnumpy() @ d1.weight.asnumpy().T + d1.bias.asnumpy()) @ d2.weight.asnumpy().T
                          + d2.bias.asnumpy(), 0), rtol=1e-5)
seq[2] = nn.Tanh()
assert isinstance(seq[2], nn.Tanh)
raises(TypeError, seq.__setitem__, 1.0, r, match="index should be int type")
net2 = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))


def to_ones(cell):
    if isinstance(cell, nn.Dense):
        cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))


net2.apply(to_ones)
assert np.all(net2[1].weight.asnumpy() == 1)

# CellList
cl = nn.CellList([nn.ReLU()])
cl.append(nn.Tanh())
cl.extend([nn.Sigmoid()])
cl += [nn.ReLU()]
cl.insert(0, nn.Sigmoid())
assert [type(c).__name__ for c in cl] == ["Sigmoid", "ReLU", "Tanh", "Sigmoid", "ReLU"]
assert isinstance(cl[1:3], nn.CellList) and len(cl[1:3]) == 2
cl[0] = cl[1]
assert cl[0] is cl[1]
raises(TypeError, cl.extend, [nn.ReLU(), 3], match="should be Cell")
raises(TypeError, nn.CellList, ["x"])

# Wrappers
net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
xw = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
yw = Tensor(np.array([[1.0]], np.float32))
grads = nn.WithGradCell(net, nn.MSELoss())(xw, yw)
# loss = (x.w - y)^2, d/dw = 2 (6 - 1) x
close(grads[0], [[10.0, 20.0, 30.0]])
close(grads[1], [10.0])
loss, g = nn.ForwardValueAndGrad(nn.WithLossCell(net, nn.MSELoss()), weights=ParameterTuple(net.trainable_params()),
                                 get_by_list=True)(xw, yw)
close(loss, 25.0)
close(g[0], [[10.0, 20.0, 30.0]])
raises(TypeError, nn.ForwardValueAndGrad, net, get_by_list=True, match="'weights' must be Parameters array")
ev = nn.WithEvalCell(net, nn.MSELoss())(xw, yw)
close(ev[0], 25.0) and close(ev[1], [[6.0]])
print("test_nn_cell_api: ok")

# TrainOneStepCell(return_grad=True) returns the gradients by parameter name, before the update.
net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
opt = nn.SGD(net.trainable_params(), 0.01)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt, return_grad=True)
assert isinstance(train, nn.TrainOneStepCell) and train.return_grad
loss, named = train(xw, yw)
close(loss, 25.0)
assert sorted(named) == ["bias", "weight"]
close(named["weight"], [[10.0, 20.0, 30.0]])
close(net.weight, [[0.9, 0.8, 0.7]], rtol=1e-5)
plain = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
assert not isinstance(plain(xw, yw), tuple)


class CustomStep(nn.TrainOneStepCell):
    """MindSpore's usual subclass: self.grad, self.weights, self.grad_reducer, self.optimizer."""

    def __init__(self, network, optimizer):
        super().__init__(network, optimizer, sens=1.0)

    def construct(self, x, y):
        loss = self.network(x, y)
        sens = ms.ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad_reducer(self.grad(self.network, self.weights)(x, y, sens))
        self.optimizer(grads)
        return loss * 2


net3 = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
step3 = CustomStep(nn.WithLossCell(net3, nn.MSELoss()), nn.SGD(net3.trainable_params(), 0.01))
close(step3(xw, yw), 50.0)
close(net3.weight, [[0.9, 0.8, 0.7]], rtol=1e-5)
raises(TypeError, nn.TrainOneStepCell, nn.WithLossCell(net, nn.MSELoss()), opt, return_grad=1)
print("test_nn_cell_api (train step): ok")


# A subclass whose __init__ skips super().__init__() is made, and refused when called, with
# MindSpore's AttributeError (pybind11 refused the construction with its own text).
for _mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=_mode)

    class _InitNoSuper(nn.Cell):
        def __init__(self):
            self.a = 1

        def construct(self):
            return self.a

    _net = _InitNoSuper()
    assert _net.a == 1
    try:
        _net()
    except AttributeError as _e:
        assert "The '_InitNoSuper' object does not inherit attribute from 'cell'. Please use " \
               "'super().__init__()'." == str(_e), str(_e)
    else:
        raise AssertionError("calling a Cell made without super().__init__() did not raise")
ms.set_context(mode=ms.PYNATIVE_MODE)
