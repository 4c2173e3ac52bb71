"""Initializer seeds come from NumPy's global RandomState, as in MindSpore 2.2: one
np.random.randint(low=1, high=2**63, dtype=np.int64) per random initializer call and none for a
constant one, so np.random.seed / ms.set_seed fix the weights and the script's own NumPy draws move
them; layers draw in MindSpore's order; deep copies draw nothing."""
import copy
import math

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import (HeUniform, Normal, TruncatedNormal, Uniform, XavierNormal,
                                          XavierUniform, Zero, initializer)

from _check import raises


def draw(init, shape=(3, 4)):
    return initializer(init, shape, ms.float32).asnumpy()


def same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


# One seed per call, taken from NumPy: skipping that draw by hand gives the next initializer's values.
np.random.seed(7)
first, second = draw(Normal()), draw(TruncatedNormal(0.02))
np.random.seed(7)
np.random.randint(low=1, high=1 << 63, dtype=np.int64)
assert same(draw(TruncatedNormal(0.02)), second)

# A constant takes no seed; ms.set_seed seeds NumPy, so it fixes the weights as np.random.seed does.
ms.set_seed(7)
draw(Zero())
assert same(draw(Normal()), first)

# The script's own NumPy draws come between, as under MindSpore.
np.random.seed(7)
np.random.rand()
assert not same(draw(Normal()), first)

# Dense: the weight (HeUniform(sqrt(5))) and then the bias (Uniform(1 / sqrt(in))).
np.random.seed(11)
dense = nn.Dense(4, 3)
np.random.seed(11)
assert same(dense.weight.asnumpy(), draw(HeUniform(math.sqrt(5)), (3, 4)))
assert same(dense.bias.asnumpy(), draw(Uniform(1 / math.sqrt(4)), (3,)))

# Conv2d with has_bias: weight, then bias bound 1 / sqrt(in * kh * kw).
np.random.seed(12)
conv = nn.Conv2d(2, 3, 3, has_bias=True)
np.random.seed(12)
assert same(conv.weight.asnumpy(), draw(HeUniform(math.sqrt(5)), (3, 2, 3, 3)))
assert same(conv.bias.asnumpy(), draw(Uniform(1 / math.sqrt(18)), (3,)))

# Embedding's table is 'normal' (Normal(0.01)).
np.random.seed(13)
table = nn.Embedding(5, 2).embedding_table.asnumpy()
np.random.seed(13)
assert same(table, draw(Normal(0.01), (5, 2)))

# MultiheadAttention: in_proj_weight, out_proj's weight and bias, then bias_k / bias_v (XavierNormal).
np.random.seed(14)
mha = nn.MultiheadAttention(4, 2, add_bias_kv=True)
np.random.seed(14)
assert same(mha.in_proj_weight.asnumpy(), draw(XavierUniform(), (12, 4)))
assert same(mha.out_proj.weight.asnumpy(), draw(HeUniform(math.sqrt(5)), (4, 4)))
assert same(mha.out_proj.bias.asnumpy(), draw(Uniform(1 / math.sqrt(4)), (4,)))
assert same(mha.bias_k.asnumpy(), draw(XavierNormal(), (1, 1, 4)))

# The recurrent layers draw with np.random.uniform in float64 (then float32), as MindSpore's do.
np.random.seed(15)
lstm = nn.LSTM(3, 2)
np.random.seed(15)
stdv = 1 / math.sqrt(2)
assert same(lstm.weight_ih_l0.asnumpy(), np.random.uniform(-stdv, stdv, (8, 3)).astype(np.float32))
assert same(lstm.weight_hh_l0.asnumpy(), np.random.uniform(-stdv, stdv, (8, 2)).astype(np.float32))

# The cells allocate with np.random.randn first (those values are dropped), then draw Uniform seeds.
np.random.seed(18)
cell = nn.GRUCell(3, 2)
np.random.seed(18)
for shape in ((6, 3), (6, 2), (6,), (6,)):
    np.random.randn(*shape)
assert same(cell.weight_ih.asnumpy(), draw(Uniform(1 / math.sqrt(2)), (6, 3)))

# A deep copy draws nothing: the next initializer sees NumPy where it was.
np.random.seed(16)
net = nn.Dense(4, 3)
expected_next = draw(Normal())
np.random.seed(16)
net = nn.Dense(4, 3)
copy.deepcopy(net)
assert same(draw(Normal()), expected_next)

# A float64 Parameter holds MindSpore's float32 draws.
np.random.seed(17)
wide = initializer(Normal(), (3, 4), ms.float64).asnumpy()
np.random.seed(17)
assert same(wide, draw(Normal()).astype(np.float64))

# NumPy takes 32-bit seeds; MindSpore's set_seed passes the seed on and so refuses a larger one.
raises(ValueError, ms.set_seed, 1 << 32)
