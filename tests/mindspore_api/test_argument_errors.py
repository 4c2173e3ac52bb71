"""Wrong arguments to functions and constructors bound from C++ give MindSpore's TypeError
wording, never pybind11's overload listing."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import raises

cases = [
    (lambda: nn.Dense("a", 3), "For 'Dense', the type of 'in_channels' should be int, but got str."),
    (lambda: nn.Dense(2, 3, bogus=1), "For 'Dense', got an unexpected keyword argument 'bogus'."),
    (lambda: ops.add(Tensor(np.ones(2, np.float32))), "For 'add', the argument 'other' is required, but it was not given."),
    (lambda: nn.Adam([], learning_rate=0.1, bogus=1), "For 'Adam', got an unexpected keyword argument 'bogus'."),
    (lambda: nn.Adam([], 0.1, 0.9, 0.999, 1e-8, False, False, 0.0, 1.0, False, 7, 8),
     "positional arguments"),
]
for call, text in cases:
    e = raises(TypeError, call, match=text)
    for pybind_text in ("incompatible", "Invoked with", "handle", "The following argument types"):
        assert pybind_text not in str(e), str(e)

# Adam's use_lazy / use_offload are accepted (dense gradients: Adam's own update) and checked.
net = nn.Dense(2, 1)
nn.Adam(net.trainable_params(), learning_rate=0.01, use_lazy=True)
nn.Adam(net.trainable_params(), learning_rate=0.01, use_offload=True)
raises(TypeError, nn.Adam, net.trainable_params(), use_lazy=1, match="For 'Adam', the type of 'use_lazy' should be bool")

# A call that succeeds is untouched, and errors of another kind keep their text.
assert ops.add(Tensor(np.ones(2, np.float32)), 1).asnumpy().tolist() == [2.0, 2.0]
raises(TypeError, ms.set_seed, "x", match="seed")

# GradOperation(get_by_list=True)(net) without weights takes the network's trainable parameters.
w_net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
grads = ops.GradOperation(get_by_list=True)(w_net)(Tensor(np.array([[1.0, 2.0]], np.float32)))
assert len(grads) == 2 and grads[0].asnumpy().tolist() == [[1.0, 2.0]] and grads[1].asnumpy().tolist() == [1.0]
