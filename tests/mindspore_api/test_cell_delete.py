"""del on Cells: children and Parameters are unregistered (they leave parameters_dict and the
children); containers drop items by index or slice, a CellList numbers the rest again."""
from collections import OrderedDict

import numpy as np

from mindspore import Parameter, Tensor, nn

from _check import raises


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mod1 = nn.Dense(2, 3)
        self.mod2 = nn.Dense(3, 1)
        self.scale = Parameter(Tensor(np.ones(1, np.float32)), name="scale")
        self.plain = 5

    def construct(self, x):
        return self.mod2(self.mod1(x)) * self.scale


net = Net()
assert list(net.parameters_dict().keys()) == ["scale", "mod1.weight", "mod1.bias", "mod2.weight", "mod2.bias"] \
    or sorted(net.parameters_dict().keys()) == sorted(["scale", "mod1.weight", "mod1.bias", "mod2.weight", "mod2.bias"])
del net.mod1
assert sorted(net.parameters_dict().keys()) == ["mod2.bias", "mod2.weight", "scale"]
raises(AttributeError, lambda: net.mod1)
assert "mod1" not in dict(net.name_cells())
del net.mod2.weight
assert sorted(net.parameters_dict().keys()) == ["mod2.bias", "scale"]
del net.scale
assert sorted(net.parameters_dict().keys()) == ["mod2.bias"]
del net.plain
raises(AttributeError, lambda: net.plain)


def delete_missing():
    del net.nothing_here


raises(AttributeError, delete_missing)

conv = nn.Conv2d(3, 2, 3)
pool = nn.AvgPool2d(2)
relu = nn.ReLU()
seq = nn.SequentialCell(OrderedDict([("conv", conv), ("pool", pool), ("relu", relu)]))
del seq[1]
assert len(seq) == 2 and list(dict(seq.name_cells()).keys()) == ["conv", "relu"]
out = seq(Tensor(np.ones((1, 3, 8, 8), np.float32)))
assert out.shape == (1, 2, 8, 8)
del seq[:]
assert not seq and len(seq) == 0

cells = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 3), nn.Dense(3, 4)])
del cells[0]
assert len(cells) == 2 and list(dict(cells.name_cells()).keys()) == ["0", "1"]
assert cells[0].weight.shape == (3, 2) and cells[1].weight.shape == (4, 3)
raises(IndexError, cells.__delitem__, 5)
del cells[:]
assert not cells
