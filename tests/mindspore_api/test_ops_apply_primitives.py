"""The optimizer update primitives (ApplyGradientDescent, ApplyProximalGradientDescent,
ApplyAdagrad, ApplyAdagradV2, ApplyProximalAdagrad, ApplyAdadelta, ApplyAdaMax, ApplyFtrl): the
Parameters are updated in place to the closed forms of MindSpore's documentation, in PyNative and
graph mode, and wrong input types are refused with TypeError as MindSpore does."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor, context
from mindspore.ops import operations as P

from _check import close, raises

rng = np.random.default_rng(3)
var0 = rng.random((2, 3)).astype(np.float32)
accum0 = rng.random((2, 3)).astype(np.float32) + 0.1
linear0 = rng.standard_normal((2, 3)).astype(np.float32)
grad = rng.standard_normal((2, 3)).astype(np.float32)


class Step(nn.Cell):
    """One primitive call on the Cell's Parameters (graph mode compiles construct)."""

    def __init__(self, prim, names):
        super().__init__()
        self.prim = prim
        self.var = Parameter(Tensor(var0), name="var")
        self.accum = Parameter(Tensor(accum0), name="accum")
        self.linear = Parameter(Tensor(linear0), name="linear")
        self.upd = Parameter(Tensor(accum0 * 0.5), name="upd")
        self.m = Parameter(Tensor(linear0), name="m")
        self.names = names

    def construct(self, *args):
        params = [getattr(self, n) for n in self.names]
        return self.prim(*params, *args)


def ftrl_reference(lr, l1, l2, lr_power):
    p = -lr_power
    accum = accum0 + grad * grad
    linear = linear0 + grad - (accum ** p - accum0 ** p) / lr * var0
    var = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / (accum ** p / lr + 2 * l2), 0.0)
    return var, accum, linear


for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
    context.set_context(mode=mode)

    net = Step(P.ApplyGradientDescent(), ["var"])
    out = net(Tensor(np.float32(0.5)), Tensor(grad))
    close(out, var0 - 0.5 * grad)
    close(net.var, var0 - 0.5 * grad)

    net = Step(P.ApplyAdagrad(), ["var", "accum"])
    new_var, new_accum = net(0.1, Tensor(grad))
    close(new_accum, accum0 + grad * grad)
    close(net.var, var0 - 0.1 * grad / np.sqrt(accum0 + grad * grad))
    close(new_var, net.var.asnumpy())

    # update_slots=False keeps accum and divides by its old value
    net = Step(P.ApplyAdagrad(update_slots=False), ["var", "accum"])
    net(0.1, Tensor(grad))
    close(net.accum, accum0)
    close(net.var, var0 - 0.1 * grad / np.sqrt(accum0))

    net = Step(P.ApplyAdagradV2(epsilon=0.01), ["var", "accum"])
    new_var, new_accum = net(Tensor(np.float32(0.1)), Tensor(grad))
    close(new_accum, accum0 + grad * grad)
    close(net.var, var0 - 0.1 * grad / (np.sqrt(accum0 + grad * grad) + 0.01))

    # l1 shrinks |prox| by alpha * l1 (to zero below it), l2 divides by 1 + alpha * l2
    net = Step(P.ApplyProximalGradientDescent(), ["var"])
    net(0.5, 0.4, 0.3, Tensor(grad))
    prox = var0 - 0.5 * grad
    close(net.var, np.sign(prox) / (1 + 0.5 * 0.3) * np.maximum(np.abs(prox) - 0.5 * 0.4, 0))

    net = Step(P.ApplyProximalAdagrad(), ["var", "accum"])
    out = net(0.5, 0.4, 0.3, Tensor(grad))
    acc = accum0 + grad * grad
    prox = var0 - 0.5 * grad / np.sqrt(acc)
    close(out[1], acc)
    close(net.var, np.sign(prox) / (1 + 0.5 * 0.3) * np.maximum(np.abs(prox) - 0.5 * 0.4, 0))

    net = Step(P.ApplyAdadelta(), ["var", "accum", "upd"])
    out = net(0.1, 0.9, 1e-6, Tensor(grad))
    acc = 0.9 * accum0 + 0.1 * grad * grad
    upd = np.sqrt(accum0 * 0.5 + 1e-6) * grad / np.sqrt(acc + 1e-6)
    close(out[1], acc)
    close(out[2], 0.9 * accum0 * 0.5 + 0.1 * upd * upd)
    close(net.var, var0 - 0.1 * upd)

    # v = max(beta2 * v, |grad|) with v the accum Parameter, m the m Parameter
    net = Step(P.ApplyAdaMax(), ["var", "m", "accum"])
    out = net(0.5, 0.1, 0.9, 0.99, 1e-8, Tensor(grad))
    m = 0.9 * linear0 + 0.1 * grad
    v = np.maximum(0.99 * accum0, np.abs(grad))
    close(out[1], m)
    close(out[2], v)
    close(net.var, var0 - 0.1 / (1 - 0.5) * m / (v + 1e-8), rtol=1e-5, atol=1e-5)

    # the second l1 lies between the |linear| values, so some of var are shrunk to exactly zero
    for l1 in (0.0, float(np.median(np.abs(ftrl_reference(0.01, 0.0, 0.2, -0.5)[2])))):
        net = Step(P.ApplyFtrl(), ["var", "accum", "linear"])
        out = net(Tensor(grad), 0.01, l1, 0.2, -0.5)
        var, accum, linear = ftrl_reference(0.01, l1, 0.2, -0.5)
        close(net.var, var, rtol=1e-4, atol=1e-5)
        close(out, var, rtol=1e-4, atol=1e-5)
        close(net.accum, accum)
        close(net.linear, linear, rtol=1e-4, atol=1e-5)
        if l1:
            assert (net.var.asnumpy() == 0).sum() == 3

context.set_context(mode=context.PYNATIVE_MODE)
gd = P.ApplyGradientDescent()
f64 = Parameter(Tensor(var0.astype(np.float64)), name="f64")
raises(TypeError, gd, f64, Tensor(np.float32(0.1)), Tensor(grad.astype(np.float64)), match="Float64")
p32 = Parameter(Tensor(var0), name="p32")
raises(TypeError, gd, p32, Tensor(np.float32(0.1)), grad, match="'delta' must be a Tensor")
raises(TypeError, gd, p32, np.array([0.1], np.float32), Tensor(grad), match="'alpha' must be a Number or a Tensor")
raises(TypeError, P.ApplyAdagrad(), Tensor(var0), p32, 0.1, Tensor(grad), match="'var' must be a Parameter")
raises(TypeError, P.ApplyAdagrad, update_slots=1)
assert P.ApplyFtrl().name == "ApplyFtrl" and ms.ops.ApplyAdagrad is P.ApplyAdagrad
