"""Mixed precision as MindSpore 2.2 applies it: Cell.to_float (every op of the Cell gets its float
inputs cast, Parameters included, and gradients flow back into the float32 weights),
amp.auto_mixed_precision at O0/O1/O2/O3, custom_mixed_precision, the white and black lists,
build_train_network's configurations, and the errors of bad arguments."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor, amp, ops

from _check import raises

F16 = np.float16
F32 = np.float32


def r16(x):
    """A float32 result rounded to float16, as each float16 op rounds its result."""
    return np.asarray(x, F32).astype(F16)


# --- Cell.to_float: float16 inputs and weights, float16 result rounded after each op ---------
dense = nn.Dense(3, 2)
w = dense.weight.asnumpy()
b = dense.bias.asnumpy()
x = np.array([[1.0, 2.0, 3.0], [0.1, -0.7, 1.0 / 3.0]], F32)
assert dense.to_float(ms.float16) is dense
for given in (Tensor(x.astype(F16)), Tensor(x)):  # a float32 input is cast too
    out = dense(given)
    assert out.dtype == ms.float16, out.dtype
    x16, w16, b16 = x.astype(F16).astype(F32), w.astype(F16).astype(F32), b.astype(F16).astype(F32)
    expected = r16(r16(x16 @ w16.T).astype(F32) + b16)
    assert (out.asnumpy().view(np.uint16) == expected.view(np.uint16)).all(), (out, expected)
assert dense.weight.dtype == ms.float32  # the Parameter itself stays float32

# The gradient reaches the float32 weight through the cast, as a float32 tensor.
grad_fn = ms.grad(lambda t: dense(t).sum(), grad_position=None, weights=dense.trainable_params())
gw, gb = grad_fn(Tensor(x))
assert gw.dtype == ms.float32 and gb.dtype == ms.float32, (gw.dtype, gb.dtype)
assert np.allclose(gw.asnumpy(), np.tile(x.astype(F16).astype(F32).sum(axis=0), (2, 1)), rtol=1e-3)
assert np.allclose(gb.asnumpy(), [2.0, 2.0])

# Only float tensors are cast; a Cell computing in float32 inside a float16 one wins for its ops.
inner = nn.Dense(3, 2).to_float(ms.float32)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = inner

    def construct(self, t, idx):
        return self.inner(t * 1.0), ops.gather(t, idx, 0)


outer = Outer().to_float(ms.float16)
inner.to_float(ms.float32)
y32, picked = outer(Tensor(x), Tensor(np.array([1], np.int32)))
assert y32.dtype == ms.float32 and picked.dtype == ms.float16, (y32.dtype, picked.dtype)
raises(ValueError, nn.Dense(1, 1).to_float, ms.int32, match="For 'to_float', the argument 'dst_type'")


# --- the levels on a LeNet-like network -------------------------------------------------------
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3)
        self.matmul = ops.MatMul()
        self.proj = Parameter(Tensor(np.eye(3, dtype=F32) / 3.0), name="proj")

    def construct(self, t):
        h = self.relu(self.bn(self.conv(t)))
        return self.matmul(self.fc(self.flatten(h)), self.proj)


def seen_dtypes(net):
    """The dtype each named Cell receives and returns on one call."""
    seen = {}
    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(
                lambda cid, inputs, output, name=name: seen.__setitem__(name, (inputs[0].dtype, output.dtype)))
    return seen


data = Tensor(np.random.RandomState(0).randn(2, 1, 6, 6).astype(F32))

net0 = Net()
assert amp.auto_mixed_precision(net0, "O0") is net0
seen = seen_dtypes(net0)
assert net0(data).dtype == ms.float32 and seen["conv"] == (ms.float32, ms.float32)

# O1: white-listed Cells (Conv2d, Dense) and primitives (MatMul) compute in float16 and hand on
# float32; the rest (BatchNorm2d, ReLU) stays float32.
net1 = Net()
out1 = amp.auto_mixed_precision(net1, "O1")
assert out1 is net1 and isinstance(net1.conv, nn.Conv2d)
seen = seen_dtypes(net1)
y1 = net1(data)
assert y1.dtype == ms.float32, y1.dtype
# A float16 Cell's hooks see its inputs cast to float16 and its float16 result (the cast back to
# float32 follows the hooks); the next Cell gets float32.
assert seen["conv"] == (ms.float16, ms.float16), seen["conv"]
assert seen["bn"] == (ms.float32, ms.float32), seen["bn"]
assert seen["fc"] == (ms.float16, ms.float16) and seen["relu"] == (ms.float32, ms.float32)
assert net1.conv(data).dtype == ms.float32
fc_out = []
net1.fc.register_forward_hook(lambda cid, inputs, output: fc_out.append(output))
y1 = net1(data)
expected = r16(fc_out[-1].asnumpy().astype(F32) @ (np.eye(3, dtype=F32) / 3.0).astype(F16).astype(F32))
assert (y1.asnumpy().astype(F16).view(np.uint16) == expected.view(np.uint16)).all(), (y1, expected)
assert np.array_equal(y1.asnumpy(), expected.astype(F32))  # float16 values, returned as float32

# O2: everything float16 but BatchNorm, which computes in float32 and hands on float16; the
# network's output is cast back to float32 by a wrapper.
net2 = Net()
wrapped = amp.auto_mixed_precision(net2, "O2")
assert wrapped is not net2 and isinstance(net2.bn, nn.BatchNorm2d)
seen = seen_dtypes(net2)
y2 = wrapped(data)
assert y2.dtype == ms.float32, y2.dtype
assert seen["conv"] == (ms.float16, ms.float16), seen["conv"]
assert seen["bn"] == (ms.float32, ms.float32), seen["bn"]  # computes in float32 ...
assert net2.bn(Tensor(np.ones((1, 4, 2, 2), F32))).dtype == ms.float16  # ... and hands float16 on
assert seen["fc"] == (ms.float16, ms.float16)
assert net2.bn.gamma.dtype == ms.float32 and net2.conv.weight.dtype == ms.float32
assert [p.name for p in wrapped.get_parameters()] == [p.name for p in Net().get_parameters()]

# O3: BatchNorm too.
net3 = Net()
wrapped3 = amp.auto_mixed_precision(net3, "O3")
seen = seen_dtypes(net3)
assert wrapped3(data).dtype == ms.float32 and seen["bn"] == (ms.float16, ms.float16), seen["bn"]
net3.set_train()
wrapped3(data)  # training moves the statistics in float16 arithmetic; they stay float32 Parameters
assert net3.bn.moving_mean.dtype == ms.float32 and net3.bn.moving_variance.dtype == ms.float32
assert not np.allclose(net3.bn.moving_mean.asnumpy(), 0.0)

raises(ValueError, amp.auto_mixed_precision, Net(), "O4", match="The amp level O4 is not supported")
raises(ValueError, amp.auto_mixed_precision, Net(), "auto", match="The amp level auto is not supported")
raises(TypeError, amp.auto_mixed_precision, lambda t: t, "O2", match="The network type should be Cell.")

# --- the lists ------------------------------------------------------------------------------------
white = amp.get_white_list()
assert nn.Conv2d in white and nn.Dense in white and ops.MatMul in white and ops.ReLU in white
assert nn.ReLU not in white
white.append(nn.ReLU)
assert nn.ReLU not in amp.get_white_list()  # a copy
assert amp.get_black_list() == [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]

# custom_mixed_precision: one of the lists, of Cell (or Primitive) classes.
netc = Net()
amp.custom_mixed_precision(netc, white_list=[nn.Dense])
seen = seen_dtypes(netc)
netc(data)
assert seen["conv"][1] == ms.float32 and seen["fc"][1] == ms.float16, seen
netb = amp.custom_mixed_precision(Net(), black_list=[nn.BatchNorm2d, nn.Dense])
assert netb(data).dtype == ms.float32
raises(ValueError, amp.custom_mixed_precision, Net(), match="one of white_list and black_list must be provided")
raises(ValueError, amp.custom_mixed_precision, Net(), white_list=[nn.Dense], black_list=[nn.Dense],
       match="cannot be provided at the same time")
raises(TypeError, amp.custom_mixed_precision, Net(), white_list=(nn.Dense,), match="should be list")
raises(TypeError, amp.custom_mixed_precision, Net(), white_list=[nn.ReLU()], match="should be a class")
raises(TypeError, amp.custom_mixed_precision, Net(), black_list=[ops.MatMul], match="should be one of 'Cell'")

# --- build_train_network ----------------------------------------------------------------------------
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def build(level, **kwargs):
    net = Net()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return net, amp.build_train_network(net, opt, loss_fn, level=level, **kwargs)


label = Tensor(np.array([0, 2], np.int32))
net, train = build("O0")
assert type(train).__name__ == "TrainOneStepCell" and train(data, label).dtype == ms.float32
net, train = build("O2")
assert type(train).__name__ == "TrainOneStepWithLossScaleCell"
loss, overflow, scale = train(data, label)
assert loss.dtype == ms.float32 and overflow.dtype == ms.bool_ and scale.dtype == ms.float32
# DynamicLossScaleManager's 2^24 overflows the float16 gradients: skipped, and the scale halves.
assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2.0 ** 23, (overflow, scale)
net, train = build("O2", loss_scale_manager=None)
assert type(train).__name__ == "TrainOneStepCell"
net, train = build("O2", keep_batchnorm_fp32=False, loss_scale_manager=None)
seen = seen_dtypes(net)
train(data, label)
assert seen["bn"] == (ms.float16, ms.float16), seen["bn"]
net, train = build("O3", cast_model_type=ms.float32)
seen = seen_dtypes(net)
train(data, label)
assert seen["conv"] == (ms.float32, ms.float32)  # cast_model_type float32 at O3 changes nothing
net, train = build("O1")
assert type(train).__name__ == "TrainOneStepCell"

m = Net()
opt = nn.Momentum(m.trainable_params(), 0.01, 0.9)
raises(ValueError, amp.build_train_network, m, opt, loss_fn, level="O5", match="The 'level' should be in")
raises(TypeError, amp.build_train_network, m, opt, loss_fn, level=2, match="must be a string")
raises(ValueError, amp.build_train_network, m, opt, loss_fn, level="auto",
       match="Level `auto` only support when `device_target` is GPU or Ascend.")
raises(ValueError, amp.build_train_network, m, opt, loss_fn, level="O2", cast_model=ms.float16,
       match="Unsupported arg 'cast_model'")
raises(TypeError, amp.build_train_network, m, opt, loss_fn, level="O2", keep_batchnorm_fp32=1)
raises(TypeError, amp.build_train_network, m, opt, loss_fn, level="O2", loss_scale_manager=2.0)
raises(TypeError, amp.build_train_network, m, "sgd", loss_fn, match="'optimizer'")
print("ok")
