"""MindSpore 2.2's compile and configuration API that changes no value: JitConfig (validated,
kept in Cell.jit_config_dict), lazy_inline, Cell.recompute / add_flags(_recursive) / get_flags /
set_boost / cast_inputs / init_parameters_data, mindspore.from_numpy, and data_sink (which does
change what runs: sink_size batches per call, the dataset starting over at its end)."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import Tensor, nn

from _check import close, raises

close(ms.from_numpy(np.arange(3, dtype=np.float32)), [0, 1, 2])

net = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU())
net.set_jit_config(ms.JitConfig(jit_level="O2", exc_mode="sink"))
assert net.jit_config_dict == {"jit_level": "O2", "exc_mode": "sink", "jit_syntax_level": ""}
raises(ValueError, ms.JitConfig, jit_level="O3", match="jit_level")
raises(TypeError, net.set_jit_config, {"jit_level": "O2"}, match="JitConfig")
net.add_flags_recursive(fp16=True)
assert net[0].get_flags() == {"fp16": True} and net[1].fp16 is True
net.recompute()
raises(ValueError, net.recompute, unknown=True, match="not supported")
assert net.set_boost("less_bn") is net and net.init_parameters_data() == {}
cast = net.cast_inputs((Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.int32)), 3), ms.float16)
assert cast[0].dtype == ms.float16 and cast[1].dtype == ms.int32 and cast[2] == 3
close(net(Tensor(np.ones((1, 2), np.float32))).shape, (1, 3))       # values unchanged by the flags


class Lazy(nn.Cell):
    @ms.lazy_inline
    def __init__(self, width):
        super().__init__()
        self.dense = nn.Dense(2, width)

    def construct(self, x):
        return self.dense(x)


assert Lazy(4)(Tensor(np.ones((1, 2), np.float32))).shape == (1, 4)

data = ds.NumpySlicesDataset({"y": np.arange(3, dtype=np.float32)}, shuffle=False).batch(1)
seen = []


def step(y):
    seen.append(float(y.asnumpy()[0]))
    return y * 10


sink = ms.data_sink(step, data, sink_size=2)
outs = [float(sink().asnumpy()[0]) for _ in range(3)]
assert seen == [0, 1, 2, 0, 1, 2], seen          # 3 calls x 2 batches, the dataset repeating
assert outs == [10, 0, 20], outs                 # each call returns the last batch's result
raises(ValueError, ms.data_sink, step, data, sink_size=0, match="sink_size")
raises(TypeError, ms.data_sink, step, [1, 2], match="Dataset")
print("ok")
