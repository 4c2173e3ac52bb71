"""Float16 through pooling, activations and the losses, forward and backward, against NumPy computing
each op as MindSpore's CPU kernels compute float16: inputs widened to float32, the op in float32,
its result rounded to float16 once. Pooling and the elementwise gradients are checked bit for bit;
ops whose float32 sums gradstep orders differently from NumPy (norms, losses) within one float16
rounding."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor, ops

F16 = np.float16
F32 = np.float32


def r16(x):
    return np.asarray(x, F32).astype(F16)


def same_bits(got, expected, what):
    got = got.asnumpy() if hasattr(got, "asnumpy") else got
    assert got.dtype == F16, (what, got.dtype)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    assert (got.view(np.uint16) == expected.view(np.uint16)).all(), (what, got, expected)


def within_one_rounding(got, expected, what):
    got = got.asnumpy()
    assert got.dtype == F16, (what, got.dtype)
    g, e = got.astype(F32), expected.astype(F32)
    # One float16 ulp (the spacing of float16 numbers at the larger magnitude of the two).
    ulp = np.spacing(np.maximum(np.abs(g), np.abs(e)).astype(F16)).astype(F32)
    assert (np.abs(g - e) <= ulp).all(), (what, np.abs(g - e).max())


rng = np.random.RandomState(11)
x = r16(rng.uniform(-3, 3, (2, 3, 6, 6)))
x32 = x.astype(F32)

# --- max pooling: the first maximum of each window, its gradient routed there ----------------
windows = x32.reshape(2, 3, 3, 2, 3, 2).transpose(0, 1, 2, 4, 3, 5).reshape(2, 3, 3, 3, 4)
pooled = windows.max(-1)
pool = nn.MaxPool2d(kernel_size=2, stride=2)
same_bits(pool(Tensor(x)), r16(pooled), "MaxPool2d")
weights = r16(rng.uniform(-2, 2, (2, 3, 3, 3)))
dx = ms.grad(lambda t: (pool(t) * Tensor(weights)).sum())(Tensor(x))
expected = np.zeros((2, 3, 3, 3, 4), F32)
np.put_along_axis(expected, windows.argmax(-1)[..., None], weights.astype(F32)[..., None], -1)
expected = expected.reshape(2, 3, 3, 3, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(x.shape)
same_bits(dx, r16(expected), "MaxPool2d backward")

# --- average pooling: the window mean in float32, rounded; its gradient a quarter each ---------
avg = nn.AvgPool2d(kernel_size=2, stride=2)
same_bits(avg(Tensor(x)), r16(windows.mean(-1)), "AvgPool2d")
dx = ms.grad(lambda t: (avg(t) * Tensor(weights)).sum())(Tensor(x))
quarter = r16(weights.astype(F32) / 4).astype(F32)
expected = np.repeat(np.repeat(quarter, 2, axis=2), 2, axis=3)
same_bits(dx, r16(expected), "AvgPool2d backward")

# --- ReLU, Sigmoid and Tanh backward in float16: their rules are written with ops, each of which
# rounds (sigmoid: dout * y * (1 - y); tanh: dout * (1 - y * y)) ---------------------------------
dout = r16(rng.uniform(-1, 1, x.shape))
dx = ms.grad(lambda t: (ops.relu(t) * Tensor(dout)).sum())(Tensor(x))
same_bits(dx, np.where(x32 > 0, dout, F16(0)).astype(F16), "ReLU backward")
y = r16(1 / (1 + np.exp(-x32))).astype(F32)
dx = ms.grad(lambda t: (ops.sigmoid(t) * Tensor(dout)).sum())(Tensor(x))
same_bits(dx, r16(r16(dout.astype(F32) * y).astype(F32) * r16(1 - y).astype(F32)), "Sigmoid backward")
y = r16(np.tanh(x32)).astype(F32)
dx = ms.grad(lambda t: (ops.tanh(t) * Tensor(dout)).sum())(Tensor(x))
same_bits(dx, r16(dout.astype(F32) * r16(1 - r16(y * y).astype(F32)).astype(F32)), "Tanh backward")

# --- losses on float16 logits: computed in float32, rounded once ---------------------------
logits = r16(rng.uniform(-4, 4, (5, 7)))
labels = rng.randint(0, 7, 5).astype(np.int32)
l32 = logits.astype(F32)
shifted = l32 - l32.max(1, keepdims=True)
logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
within_one_rounding(ce(Tensor(logits), Tensor(labels)), r16(-logp[np.arange(5), labels].mean()), "sparse CE")
# Its gradient: (softmax - onehot) / batch, rounded once.
onehot = np.eye(7, dtype=F32)[labels]
dlogits = ms.grad(lambda t: ce(t, Tensor(labels)))(Tensor(logits))
within_one_rounding(dlogits, r16((np.exp(logp) - onehot) / 5), "sparse CE backward")
target = r16(rng.uniform(-1, 1, (5, 7)))
mse = nn.MSELoss()
# MSELoss is a composite, in MindSpore too (Sub, Square, ReduceMean): each of its ops rounds, and
# so does each op of its gradient (the mean's 1/35 spread, then Square's 2 * diff times it).
diff = r16(l32 - target.astype(F32)).astype(F32)
within_one_rounding(mse(Tensor(logits), Tensor(target)), r16(r16(diff * diff).astype(F32).mean()), "MSELoss")
dlogits = ms.grad(lambda t: mse(t, Tensor(target)))(Tensor(logits))
spread = r16(F32(1) / 35).astype(F32)
within_one_rounding(dlogits, r16(spread * r16(2 * diff).astype(F32)), "MSELoss backward")
print("float16 pooling, activations, losses and their gradients match NumPy")
