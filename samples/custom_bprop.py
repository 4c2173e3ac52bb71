"""A custom bprop: replace a Cell's backward pass with your own rule.

What it teaches: when a Cell defines `bprop(self, *inputs, out, dout)`, autodiff does not look
inside its construct; the bprop's return value (one gradient per input, as a tuple) is used
verbatim. Here a rounding Cell, whose true derivative is zero almost everywhere, gets the
straight-through estimator (pass dout through), and a second Cell clips the gradient it passes.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


class RoundSTE(nn.Cell):
    """round(x) forward; identity backward (the straight-through estimator)."""

    def construct(self, x):
        return ops.round(x)

    def bprop(self, x, out, dout):
        return (dout,)


class ClipGrad(nn.Cell):
    """Identity forward; the gradient passing through is clipped to [-limit, limit]."""

    def __init__(self, limit: float):
        super().__init__()
        self.limit = limit

    def construct(self, x):
        return x * 1.0

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout, -self.limit, self.limit),)


quantize = RoundSTE()
clip = ClipGrad(0.5)
x = Tensor(np.array([0.2, 1.7, -2.4], np.float32))


def plain(v):
    return (ops.round(v) * v).sum()


def straight_through(v):
    return (quantize(v) * v).sum()


def clipped(v):
    return (clip(v) * 3.0).sum()


print("round(x)                      :", quantize(x).asnumpy())
g_plain = ms.grad(plain)(x)
g_ste = ms.grad(straight_through)(x)
g_clip = ms.grad(clipped)(x)
print("grad of round(x)*x            :", g_plain.asnumpy(), "(round contributes 0)")
print("grad with the STE bprop       :", g_ste.asnumpy(), "(round contributes x)")
print("grad through ClipGrad(0.5) * 3:", g_clip.asnumpy())
assert np.allclose(g_plain.asnumpy(), np.round(x.asnumpy()))
assert np.allclose(g_ste.asnumpy(), np.round(x.asnumpy()) + x.asnumpy())
assert np.allclose(g_clip.asnumpy(), [0.5, 0.5, 0.5])
