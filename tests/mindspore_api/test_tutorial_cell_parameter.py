"""What the Cell and Parameter tutorials print: Parameter.set_data keeps the Parameter's dtype
and shape, Cell.phase, get_parameters as a generator, the names of cells added to a CellList /
SequentialCell that is already in a network, BatchNorm's repr and f"{tensor}"."""
import types

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor

from _check import raises

# set_data: an int64 Tensor (or a Python number) is cast to the Parameter's float32; a wider dtype
# or another shape is refused in MindSpore's words; set_dtype still changes the dtype.
b = Parameter(Tensor(np.zeros(3, np.float32)), name="b")
b.set_data(Tensor([3, 4, 5]))
assert b.dtype == ms.float32 and b.asnumpy().tolist() == [3.0, 4.0, 5.0], (b.dtype, b)
assert str(b.asnumpy()) == "[3. 4. 5.]"
raises(TypeError, b.set_data, Tensor(np.zeros(3, np.float64)),
       match="Current dtype is Float32, and incoming is Float64")
raises(ValueError, b.set_data, Tensor(np.zeros(2, np.float32)),
       match="Can not change the shape of Parameter which has been initialized")
i = Parameter(Tensor(np.zeros(2, np.int32)), name="i")
raises(TypeError, i.set_data, 1.5, match="can not be converted to current dtype implicitly")
s = Parameter(Tensor(1.0, ms.float32), name="s")
s.set_data(2)
assert s.dtype == ms.float32 and float(s.asnumpy()) == 2.0
b.set_dtype(ms.float16)
assert b.dtype == ms.float16 and b.asnumpy().tolist() == [3.0, 4.0, 5.0]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
        self.block = nn.CellList([nn.Dense(1, 1)])
        self.block.append(nn.Dense(1, 2))
        self.block.append(nn.ReLU())
        self.block.insert(-1, nn.BatchNorm1d(2))
        self.seq = nn.SequentialCell([nn.Dense(1, 1)])
        self.seq.extend([nn.Dense(1, 3)])
        self.seq[0] = nn.Dense(1, 4)


net = Net()
# phase: 'train' until set_train(False) makes it 'predict'.
assert net.phase == "train"
assert net.set_train(False) is net and net.phase == "predict" and not net.block[0].training
net.set_train()
assert net.phase == "train"
assert isinstance(net.get_parameters(), types.GeneratorType)
names = {p.name: tuple(p.shape) for p in net.get_parameters()}
assert names == {"w": (2,), "block.0.weight": (1, 1), "block.0.bias": (1,), "block.1.weight": (2, 1),
                 "block.1.bias": (2,), "block.2.gamma": (2,), "block.2.beta": (2,),
                 "block.2.moving_mean": (2,), "block.2.moving_variance": (2,), "seq.0.weight": (4, 1),
                 "seq.0.bias": (4,), "seq.1.weight": (3, 1), "seq.1.bias": (3,)}, names
del net.block[0]
assert [p.name for p in net.block.get_parameters()][:2] == ["block.0.weight", "block.0.bias"]
# A container outside a network keeps its own numbering.
alone = nn.CellList([nn.Dense(1, 1)])
alone.insert(0, nn.Dense(1, 2))
assert [p.name for p in alone.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]

# BatchNorm prints 1 - momentum, the weight of the batch statistics, as MindSpore keeps it.
assert "momentum=0.09999999999999998," in repr(nn.BatchNorm2d(4))

# f"{t}" is str(t) (a float32 scalar prints 0.1, not 0.10000000149011612); a spec formats the value.
lr = Tensor(0.1, ms.float32)
assert f"{lr}" == "0.1" and f"lr:{lr}" == "lr:" + str(lr)
assert f"{Tensor([1.5, 2.0])}" == "[1.5 2. ]"
assert f"{Tensor(2.302806, ms.float32):>7f}" == "2.302806"
