"""A whole O2 training step of a small LeNet-like network (Conv2d, ReLU, MaxPool2d, Flatten, Dense)
against a NumPy float16 emulation of the same step, written here from MindSpore's CPU rule: each
op takes float16 values, computes in float32 (matrix products accumulate in float32) and rounds
its result to float16; the loss computes in float32 and its scaled gradient is rounded to float16
where it enters the network (the backward of the output Cast). Checks what O2 must keep: the
Parameters and their gradients stay float32, the gradients equal the emulation's, and the
loss scale keeps small gradients that float16 flushes to zero without it.

This is how issue 17's O2-vs-O0 loss gap was traced: the float16 step is exact to the emulation,
so the gap of the 4-epoch bench is not a compute error (see tests/bench/python/amp_lenet_digits.py)."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor, amp

F16 = np.float16
F32 = np.float32
BATCH = 8


def h(x):
    return np.asarray(x, F32).astype(F16)


def f(x):
    return np.asarray(x).astype(F32)


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.fc = nn.Dense(4 * 5 * 5, 10)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.conv(x)))))


def im2col(x, k):
    n, c, height, width = x.shape
    oh, ow = height - k + 1, width - k + 1
    cols = np.empty((n, c, k, k, oh, ow), F32)
    for i in range(k):
        for j in range(k):
            cols[:, :, i, j] = x[:, :, i:i + oh, j:j + ow]
    return cols.transpose(0, 4, 5, 1, 2, 3).reshape(n * oh * ow, c * k * k), (n, oh, ow)


def pool(x):
    n, c, height, width = x.shape
    windows = x.reshape(n, c, height // 2, 2, width // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    windows = windows.reshape(n, c, height // 2, width // 2, 4)
    first_max = windows.argmax(-1)
    return np.take_along_axis(windows, first_max[..., None], -1)[..., 0], first_max


def pool_backward(dy, first_max, shape):
    n, c, height, width = shape
    windows = np.zeros((n, c, height // 2, width // 2, 4), F16)
    np.put_along_axis(windows, first_max[..., None], dy[..., None], -1)
    return windows.reshape(n, c, height // 2, width // 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(shape)


def emulated_step(conv_w, fc_w, fc_b, x, label, scale):
    """(float32 loss, [conv.weight, fc.weight, fc.bias] gradients unscaled in float32)."""
    w1, w2, b2, x = h(conv_w), h(fc_w), h(fc_b), h(x)
    cols, (n, oh, ow) = im2col(f(x), 3)
    conv = h((cols @ f(w1).reshape(4, -1).T).reshape(n, oh, ow, 4).transpose(0, 3, 1, 2))
    relu = np.maximum(conv, F16(0))
    pooled, first_max = pool(relu)
    flat = pooled.reshape(n, -1)
    matmul = h(f(flat) @ f(w2).T)
    logits = f(h(f(matmul) + f(b2)))
    e = np.exp(logits - logits.max(1, keepdims=True))
    softmax = e / e.sum(1, keepdims=True)
    loss = -np.log(softmax[np.arange(n), label]).mean()
    onehot = np.zeros_like(softmax)
    onehot[np.arange(n), label] = 1
    d_logits = h((softmax - onehot) / n * F32(scale))
    g_b2 = h(f(d_logits).sum(0))
    g_w2 = h(f(d_logits).T @ f(flat))
    d_flat = h(f(d_logits) @ f(w2))
    d_relu = pool_backward(d_flat.reshape(pooled.shape), first_max, relu.shape)
    d_conv = np.where(conv > 0, d_relu, F16(0))
    g_w1 = h((f(d_conv).transpose(0, 2, 3, 1).reshape(-1, 4).T @ cols).reshape(w1.shape))
    return loss, [f(g) / F32(scale) for g in (g_w1, g_w2, g_b2)]


rng = np.random.RandomState(7)
x = rng.uniform(-1, 1, (BATCH, 1, 12, 12)).astype(F32)
label = rng.randint(0, 10, BATCH).astype(np.int32)
ms.set_seed(3)
net = Small()
weights = [p.asnumpy().copy() for p in net.trainable_params()]
conv_w, fc_w, fc_b = weights
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
o2 = amp.auto_mixed_precision(net, "O2")


def o2_step(scale, data=x):
    def scaled_loss(data, target):
        return loss_fn(o2(data), target) * scale

    loss, grads = ms.value_and_grad(scaled_loss, None, net.trainable_params())(Tensor(data), Tensor(label))
    return float(loss.asnumpy()) / scale, [g / scale for g in grads]


for scale in (1.0, 1024.0):
    loss, grads = o2_step(scale)
    assert [p.dtype for p in net.trainable_params()] == [ms.float32] * 3
    assert [g.dtype for g in grads] == [ms.float32] * 3, [g.dtype for g in grads]
    expected_loss, expected = emulated_step(conv_w, fc_w, fc_b, x, label, scale)
    assert abs(loss - expected_loss) < 1e-6, (loss, expected_loss)
    for name, got, want in zip(("conv.weight", "fc.weight", "fc.bias"), grads, expected):
        got = got.asnumpy()
        # One float16 rounding of difference at most (a float32 sum's order), and in few elements.
        ulp = np.abs(want) * 2.0 ** -10 + 2.0 ** -24 / scale
        assert np.all(np.abs(got - want) <= ulp + 1e-12), (scale, name, np.abs(got - want).max())
        assert np.mean(got == want) > 0.95, (scale, name, np.mean(got == want))

# Without a loss scale, float16 flushes the smallest gradients to zero (here the filter's, with an
# input of magnitude 1e-5); a scale of 1024 keeps them.
x_small = x * F32(1e-5)
reference = Small()  # float32, with the same weights
for p, w in zip(reference.trainable_params(), weights):
    p.set_data(Tensor(w))
_, exact = ms.value_and_grad(lambda d, t: loss_fn(reference(d), t), None, reference.trainable_params())(
    Tensor(x_small), Tensor(label))


def lost(grads):
    """Gradient elements nonzero in float32 but zero at O2."""
    return sum(int(((g.asnumpy() == 0) & (e.asnumpy() != 0)).sum()) for g, e in zip(grads, exact))


lost_unscaled, lost_scaled = lost(o2_step(1.0, x_small)[1]), lost(o2_step(1024.0, x_small)[1])
assert lost_unscaled >= 10 and lost_scaled == 0, (lost_unscaled, lost_scaled)
