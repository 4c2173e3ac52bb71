"""Tensor(shape=..., dtype=..., init=...), dynamic-shape placeholders and Cell.set_inputs."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.common.initializer import Constant, Normal, One

from _check import close, raises

t = Tensor(shape=(2, 3), dtype=ms.float32, init=One())
assert t.shape == (2, 3) and t.dtype == ms.float32
close(t.init_data(), np.ones((2, 3)))
close(Tensor(shape=4, dtype=ms.float64, init=Constant(2.5)), np.full(4, 2.5))
ms.set_seed(3)
a = Tensor(shape=(100,), dtype=ms.float32, init=Normal(sigma=0.5)).asnumpy()
assert 0.3 < a.std() < 0.7 and a.std() > 0
close(Tensor(shape=(2,), dtype=ms.float32), np.zeros(2))
assert Tensor(shape=[None, 3], dtype=ms.float32).shape == (-1, 3)  # test_dynamic_inputs.py has more
raises(TypeError, Tensor, shape="ab", dtype=ms.float32, match="'shape' must be an int or a tuple of ints")
raises(TypeError, Tensor, np.ones(2), init=One(), match="'init' needs 'shape'")

net = nn.Dense(3, 2)
assert net.get_inputs() is None
spec = Tensor(np.ones((4, 3), np.float32))
net.set_inputs(spec)
assert net.get_inputs() == (spec,)
assert net(Tensor(np.ones((4, 3), np.float32))).shape == (4, 2)
raises(ValueError, net, Tensor(np.ones((5, 3), np.float32)), match="set_inputs")
raises(TypeError, net.set_inputs, "x", match="For 'set_inputs'")

# An allocation that cannot be had is a MemoryError naming the bytes, the shape and the dtype.
e = raises(MemoryError, Tensor, shape=(1 << 40,), dtype=ms.float32)
assert str(e) == "cannot allocate 4398046511104 bytes for a tensor of shape [1099511627776] Float32", str(e)
raises(MemoryError, ms.ops.zeros, (1 << 61, 2), ms.float64, match="more than 2^64 bytes for a tensor of shape [2305843009213693952, 2] Float64")
