"""copy.deepcopy / copy.copy of Cells (nn/_cell_copy.py): same class, same Parameter names and
values in new storage, training flag and later Python attributes kept, nested Cells and Cells
passed to __init__ copied once; refused with a TypeError when the Cell cannot be rebuilt."""
import copy

import numpy as np
from mindspore import Parameter, Tensor, nn

from _check import raises, close


class Net(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Dense(2, width)
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.fc(x))


net = Net(3)
net.fc.weight.set_data(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))
net.fc.bias.requires_grad = False
net.note = {"epochs": 2}
net.set_train()
x = Tensor(np.array([[1.0, -2.0]], np.float32))
for clone in (copy.deepcopy(net), copy.copy(net)):
    assert type(clone) is Net and clone.training and clone.note == {"epochs": 2} and clone.note is not net.note
    assert [p.name for p in clone.get_parameters()] == ["fc.weight", "fc.bias"]
    assert not clone.fc.bias.requires_grad
    close(clone(x), net(x).asnumpy())
    clone.fc.weight.set_data(Tensor(np.zeros((3, 2), np.float32)))  # new storage: the original keeps its values
    close(net.fc.weight, np.arange(6, dtype=np.float32).reshape(3, 2))

# A Cell given to __init__ is copied once, and shared as in the original.
body = nn.Dense(2, 1)
with_loss = nn.WithLossCell(body, nn.MSELoss())
copied = copy.deepcopy(with_loss)
assert type(copied) is nn.WithLossCell and len(copied.trainable_params()) == 2
assert copied.trainable_params()[0] is not body.weight
close(copied.trainable_params()[0], body.weight.asnumpy())
seq = copy.deepcopy(nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()]))
assert type(seq) is nn.SequentialCell and len(seq) == 2

# Rebuilding from __init__ would give another set of Parameters: refused, not made different.
changed = Net(3)
changed.extra = Parameter(Tensor(np.ones(1, np.float32)), name="extra")
raises(TypeError, copy.deepcopy, changed, match="changed after __init__")
raises(TypeError, copy.deepcopy, nn.SGD(body.trainable_params(), 0.1), match="copying an optimizer")
