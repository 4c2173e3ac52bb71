"""The optimizers written in Python against NumPy implementations of MindSpore's documented
updates over a few steps: SGD and Momentum with parameter groups and loss scale, Adam with AMSGrad,
AdamWeightDecay, ASGD, Rprop, AdaMax; their state names, argument errors, and TrainOneStepCell
with a Python optimizer (PyNative and GRAPH_MODE)."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Parameter, Tensor
from mindspore.nn.optim import ASGD, AdaMax, AdamWeightDecay, Rprop

from _check import raises
from _optim_case import OptimCase, check

_case = OptimCase(3, "b")
W0, B0, GRADS, params, run = _case.W0, _case.B0, _case.GRADS, _case.params, _case.run


# SGD with groups (group weight decay; the default decay elsewhere), dampening, first-step copy.
def np_sgd(lrs, wds, momentum, dampening, nesterov=False, loss_scale=1.0):
    ps, accum = [W0.copy(), B0.copy()], [np.zeros_like(W0), np.zeros_like(B0)]
    for t, grads in enumerate(GRADS):
        for i, g in enumerate(grads):
            g = (g + wds[i] * loss_scale * ps[i]) / loss_scale
            accum[i] = g if t == 0 else accum[i] * momentum + (1 - dampening) * g
            step = g + momentum * accum[i] if nesterov else accum[i]
            ps[i] = ps[i] - lrs[i] * step
    return ps, accum


got, opt = run(lambda p: nn.SGD([{"params": [p[0]], "weight_decay": 0.2, "lr": 0.05}, {"params": [p[1]]}],
                                learning_rate=0.1, momentum=0.3, dampening=0.2, weight_decay=0.1))
want, accum = np_sgd([0.05, 0.1], [0.2, 0.1], 0.3, 0.2)
check(got, want, "SGD groups")
check([a.asnumpy() for a in opt.accum], accum, "SGD accum")
assert [a.name for a in opt.accum] == ["accum.w", "accum.b"]
got, _ = run(lambda p: nn.SGD(p, 0.1, momentum=0.5, nesterov=True, loss_scale=4.0, weight_decay=0.01))
check(got, np_sgd([0.1, 0.1], [0.01, 0.01], 0.5, 0.0, nesterov=True, loss_scale=4.0)[0], "SGD nesterov, loss_scale")
raises(ValueError, nn.SGD, [{"params": params()}], momentum=0.1, nesterov=True, dampening=0.1,
       match="'momentum' must be > 0.0 and 'dampening' must equal to 0.0")


# Momentum with groups; the bias (a 'beta'-free name) decays only through its group.
def np_momentum(lrs, wds, momentum, nesterov):
    ps, moments = [W0.copy(), B0.copy()], [np.zeros_like(W0), np.zeros_like(B0)]
    for grads in GRADS:
        for i, g in enumerate(grads):
            g = g + wds[i] * ps[i]
            moments[i] = moments[i] * momentum + g
            ps[i] = ps[i] - (lrs[i] * (g + momentum * moments[i]) if nesterov else lrs[i] * moments[i])
    return ps


for nesterov in (False, True):
    got, _ = run(lambda p: nn.Momentum([{"params": [p[0]], "weight_decay": 0.05}, {"params": [p[1]], "lr": 0.02}],
                                       0.1, 0.9, use_nesterov=nesterov))
    check(got, np_momentum([0.1, 0.02], [0.05, 0.0], 0.9, nesterov), "Momentum nesterov=%s" % nesterov)


# Adam with AMSGrad (MindSpore's kernel: the step size carries the bias correction).
def np_adam(lr, b1, b2, eps, amsgrad):
    ps = [W0.copy(), B0.copy()]
    m, v, vhat = [np.zeros_like(p) for p in ps], [np.zeros_like(p) for p in ps], [np.zeros_like(p) for p in ps]
    for t, grads in enumerate(GRADS, 1):
        step = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        for i, g in enumerate(grads):
            m[i] = m[i] + (g - m[i]) * (1 - b1)
            v[i] = v[i] + (g * g - v[i]) * (1 - b2)
            vhat[i] = np.maximum(vhat[i], v[i])
            ps[i] = ps[i] - step * m[i] / (np.sqrt(vhat[i] if amsgrad else v[i]) + eps)
    return ps


got, opt = run(lambda p: nn.Adam(p, 0.01, 0.8, 0.9, 1e-6, use_amsgrad=True))
check(got, np_adam(0.01, 0.8, 0.9, 1e-6, True), "Adam amsgrad")
assert [x.name for x in opt.vhat] == ["vhat.w", "vhat.b"]
got, _ = run(lambda p: nn.Adam(p, [0.01] * 4, 0.8, 0.9, 1e-6))
check(got, np_adam(0.01, 0.8, 0.9, 1e-6, False), "Adam with a list of rates")
raises(ValueError, nn.Adam, params(), use_amsgrad=True, use_nesterov=True, match="when 'use_amsgrad' is True")


# AdamWeightDecay: no bias correction, decoupled decay.
def np_adamw(lr, b1, b2, eps, wd):
    ps = [W0.copy(), B0.copy()]
    m, v = [np.zeros_like(p) for p in ps], [np.zeros_like(p) for p in ps]
    for grads in GRADS:
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            ps[i] = ps[i] - lr * (m[i] / (np.sqrt(v[i]) + eps) + wd * ps[i])
    return ps


got, _ = run(lambda p: AdamWeightDecay(p, 0.01, 0.9, 0.99, 1e-6, weight_decay=0.1))
check(got, np_adamw(0.01, 0.9, 0.99, 1e-6, 0.1), "AdamWeightDecay")
raises(ValueError, AdamWeightDecay, params(), beta1=1.0, match="'beta1' must be in range of (0.0, 1.0)")


# ASGD.
def np_asgd(lr, lambd, alpha, t0):
    ps = [W0.copy(), B0.copy()]
    eta, mu, ax = [lr, lr], [1.0, 1.0], [np.zeros_like(p) for p in ps]
    for t, grads in enumerate(GRADS, 1):
        for i, g in enumerate(grads):
            ps[i] = ps[i] * (1 - lambd * eta[i]) - eta[i] * g
            ax[i] = ps[i] if mu[i] == 1 else ax[i] + (ps[i] - ax[i]) * mu[i]
            eta[i] = lr / (1 + lambd * lr * t) ** alpha
            mu[i] = 1 / max(1, t - t0)
    return ps, ax


got, opt = run(lambda p: ASGD(p, 0.05, lambd=0.1, alpha=0.75, t0=2.0))
want, ax = np_asgd(0.05, 0.1, 0.75, 2.0)
check(got, want, "ASGD")
check([a.asnumpy() for a in opt.ax], ax, "ASGD ax")
raises(TypeError, ASGD, params(), lambd=1, match="'lambd' should be float")


# Rprop.
def np_rprop(lr, etaminus, etaplus, smin, smax):
    ps = [W0.copy(), B0.copy()]
    prev, size = [np.zeros_like(p) for p in ps], [np.full_like(p, lr) for p in ps]
    for grads in GRADS:
        for i, g in enumerate(grads):
            s = np.sign(g * prev[i])
            factor = np.where(s > 0, etaplus, np.where(s < 0, etaminus, 1.0))
            size[i] = np.clip(size[i] * factor, smin, smax)
            g = np.where(s < 0, 0.0, g)
            ps[i] = ps[i] - np.sign(g) * size[i]
            prev[i] = g
    return ps


got, _ = run(lambda p: Rprop(p, 0.1, etas=(0.4, 1.5), step_sizes=(0.01, 0.2)))
check(got, np_rprop(0.1, 0.4, 1.5, 0.01, 0.2), "Rprop")
raises(ValueError, Rprop, params(), etas=(1.5, 0.5), match="'etaminus' must be in range of (0.0, 1.0)")
# MindSpore's checks: a tuple (TypeError), of two (ValueError), of floats (TypeError), min <= max.
raises(TypeError, Rprop, params(), etas=[0.5, 1.2], match="etas must be a tuple")
raises(ValueError, Rprop, params(), etas=(0.5, 1.2, 1.3), match="etas must be a tuple with the size of 2")
raises(ValueError, Rprop, params(), step_sizes=(1e-6, 50., 60.), match="step_sizes must be a tuple with the size")
raises(TypeError, Rprop, params(), etas=(0.5, 2), match="'etaplus' should be 'float'")
raises(ValueError, Rprop, params(), etas=(0.5, 1.0), match="etaplus must be greater than 1.0")
raises(ValueError, Rprop, params(), step_sizes=(50., 1e-6), match="maximal step size should not be less than")


# AdaMax.
def np_adamax(lr, b1, b2, eps):
    ps = [W0.copy(), B0.copy()]
    m, v = [np.zeros_like(p) for p in ps], [np.zeros_like(p) for p in ps]
    for t, grads in enumerate(GRADS, 1):
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = np.maximum(b2 * v[i], np.abs(g))
            ps[i] = ps[i] - lr / (1 - b1 ** t) * m[i] / (v[i] + eps)
    return ps


got, _ = run(lambda p: AdaMax(p, 0.01, 0.8, 0.95, 1e-7))
check(got, np_adamax(0.01, 0.8, 0.95, 1e-7), "AdaMax")

# Where they are exported; Python optimizers count as nn.Optimizer, as do the core ones.
assert nn.ASGD is ASGD and nn.Rprop is Rprop and nn.AdaMax is AdaMax and nn.AdamWeightDecay is AdamWeightDecay
assert isinstance(ASGD(params()), nn.Optimizer) and isinstance(nn.SGD(params()), nn.Optimizer)
raises(ValueError, ASGD, [], match="For 'Optimizer', the argument parameters must not be empty.")
raises(ValueError, ASGD, None, match="For 'Optimizer', the argument parameters can not be None.")
raises(TypeError, ASGD, 9, match="For 'Optimizer', the argument parameters must be Iterable type")
# The core optimizers refuse what is not a collection of Parameters as MindSpore's do.
raises(ValueError, nn.SGD, None, match="can not be None")
raises(TypeError, nn.SGD, Parameter(Tensor(np.zeros((1, 2, 3), np.float32)), "lone"))
raises(ValueError, nn.Momentum, [], 0.1, 0.9, match="must not be empty")
raises(TypeError, ASGD, params(), weight_decay="x", match="'weight_decay' should be float or int")


# TrainOneStepCell with a Python optimizer, in both modes; a script's own Optimizer subclass.
class Halver(nn.Optimizer):
    def __init__(self, parameters):
        super().__init__(0.5, parameters)

    def construct(self, gradients):
        lr = self.get_lr()
        for p, g in zip(self.parameters, gradients):
            ms.ops.assign(p, p - lr * g)
        return True


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    for make in (lambda p: nn.SGD([{"params": p}], 0.1), Halver):
        net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
        opt = make(net.trainable_params())
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        assert step.optimizer is opt
        x = Tensor(np.ones((2, 3), np.float32))
        y = Tensor(np.zeros((2, 1), np.float32))
        loss = step(x, y)
        assert np.isclose(float(loss.asnumpy()), 9.0)
        lr = 0.5 if isinstance(opt, Halver) else 0.1
        # d/dw mean((x.w)^2) = 2 * 3 * x = 6 per weight
        assert np.allclose(net.weight.asnumpy(), 1 - lr * 6.0), (mode, net.weight.asnumpy())
ms.set_context(mode=ms.PYNATIVE_MODE)
print("ok")
