"""mindspore.experimental.optim (MindSpore 2.2): SGD, Adam, AdamW over parameter groups against
NumPy versions of MindSpore's update rules, the lr schedulers against the docs' sequences and
their closed forms, and ParameterTuple.clone (the state of custom optimizers)."""
import math

import numpy as np

import mindspore as ms
from mindspore import ParameterTuple, Tensor, nn
from mindspore.experimental import optim

from _check import close, raises

rs = np.random.RandomState(0)
W0, B0, X = rs.randn(2, 3).astype(np.float32), rs.randn(2).astype(np.float32), rs.randn(5, 3).astype(np.float32)


def run(make, steps=3):
    """Trains Dense(3, 2) on sum(y^2); returns the weights after each step and the gradients."""
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(W0))
    net.bias.set_data(Tensor(B0))
    opt = make(net.trainable_params())
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).sum(), None, opt.parameters)
    weights, grads = [], []
    for _ in range(steps):
        _, g = grad_fn(Tensor(X))
        grads.append([t.asnumpy().astype(np.float64) for t in g])
        opt(g)
        weights.append(net.weight.asnumpy().astype(np.float64))
    return weights, grads


def numpy_sgd(grads, lr, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False):
    w, v, out = W0.astype(np.float64), None, []
    for g, _ in grads:
        g = g + wd * w
        if momentum > 0:
            v = g if v is None else momentum * v + (1 - dampening) * g
            g = g + momentum * v if nesterov else v
        w = w - lr * g
        out.append(w)
    return out


# The gradients depend on the weights, so each reference replays the recorded gradients: only
# the update rule is checked here, step by step.
weights, grads = run(lambda p: optim.SGD(p, 0.1, momentum=0.9, dampening=0.2, weight_decay=0.01))
for got, want in zip(weights, numpy_sgd(grads, 0.1, 0.9, 0.2, 0.01)):
    close(got, want, rtol=1e-5)
weights, grads = run(lambda p: optim.SGD(p, 0.1, momentum=0.9, nesterov=True))
for got, want in zip(weights, numpy_sgd(grads, 0.1, 0.9, nesterov=True)):
    close(got, want, rtol=1e-5)


def numpy_adam(grads, lr, b1, b2, eps, wd=0.0, decoupled=False):
    w, m, v, out = W0.astype(np.float64), 0.0, 0.0, []
    for t, (g, _) in enumerate(grads, 1):
        if decoupled:
            w = w * (1 - lr * wd)
        else:
            g = g + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        if decoupled:    # AdamW: eps after the bias-corrected square root
            w = w - lr / (1 - b1 ** t) * m / (np.sqrt(v) / math.sqrt(1 - b2 ** t) + eps)
        else:            # MindSpore's Adam kernel: eps on sqrt(v), the correction in the step size
            w = w - lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
        out.append(w)
    return out


weights, grads = run(lambda p: optim.Adam(p, 0.01, eps=1e-3, weight_decay=0.1))
for got, want in zip(weights, numpy_adam(grads, 0.01, 0.9, 0.999, 1e-3, 0.1)):
    close(got, want, rtol=1e-5, atol=1e-7)
weights, grads = run(lambda p: optim.AdamW(p, 0.01, eps=1e-3, weight_decay=0.1))
for got, want in zip(weights, numpy_adam(grads, 0.01, 0.9, 0.999, 1e-3, 0.1, decoupled=True)):
    close(got, want, rtol=1e-5, atol=1e-7)

# parameter groups: the bias group has its own lr (0 here: it must not move)
net = nn.Dense(3, 2)
opt = optim.SGD([{"params": [net.weight]}, {"params": [net.bias], "lr": 0.0}], lr=0.1)
bias = net.bias.asnumpy().copy()
opt(ms.grad(lambda x: net(x).sum(), None, opt.parameters)(Tensor(X)))
close(net.bias, bias)
assert len(opt.param_groups) == 2 and float(opt.param_groups[1]["lr"].asnumpy()) == 0.0
raises(ValueError, optim.SGD, [{"params": [net.weight]}, {"params": [net.weight]}], 0.1,
       match="more than one parameter group")
raises(ValueError, optim.SGD, net.trainable_params(), 0.1, nesterov=True, match="'nesterov' is true")


def lrs(make_scheduler, steps, lr=0.05):
    o = optim.Adam(nn.Dense(2, 2).trainable_params(), lr=lr)
    s = make_scheduler(o)
    out = []
    for _ in range(steps):
        s.step()
        out.append(float(s.get_last_lr()[0].asnumpy()))
    return out


S = optim.lr_scheduler
close(lrs(lambda o: S.ExponentialLR(o, gamma=0.5), 3, lr=0.01), [0.005, 0.0025, 0.00125])
close(lrs(lambda o: S.StepLR(o, step_size=2, gamma=0.1), 5), [0.05, 0.005, 0.005, 0.0005, 0.0005])
# The docs' LinearLR: 0.025 at epoch 0, then 0.03125, 0.0375, 0.04375, 0.05
close(lrs(lambda o: S.LinearLR(o, start_factor=0.5, total_iters=4), 4), [0.03125, 0.0375, 0.04375, 0.05])
close(lrs(lambda o: S.MultiStepLR(o, [2, 4], 0.5), 5), [0.05, 0.025, 0.025, 0.0125, 0.0125])
close(lrs(lambda o: S.CosineAnnealingLR(o, T_max=4), 4),
      [0.05 * (1 + math.cos(math.pi * e / 4)) / 2 for e in range(1, 5)], atol=1e-7)
close(lrs(lambda o: S.LambdaLR(o, lambda e: 1.0 / (e + 1)), 3), [0.025, 0.05 / 3, 0.0125])
close(lrs(lambda o: S.PolynomialLR(o, total_iters=4, power=1.0), 4), [0.0375, 0.025, 0.0125, 0.0], atol=1e-8)
close(lrs(lambda o: S.ConstantLR(o, factor=0.5, total_iters=2), 3), [0.025, 0.05, 0.05])
# step(epoch) takes the closed form
o = optim.SGD(nn.Dense(2, 2).trainable_params(), lr=0.1)
s = S.StepLR(o, step_size=2, gamma=0.5)
s.step(5)
close(s.get_last_lr()[0], 0.025)
o = optim.SGD(nn.Dense(2, 2).trainable_params(), lr=1.0)
plateau = S.ReduceLROnPlateau(o, patience=1, factor=0.5)
for metric in (1.0, 0.5, 0.6, 0.7, 0.8):
    plateau.step(metric)
close(o.param_groups[0]["lr"], 0.5)          # two epochs without improvement after 0.5

# ParameterTuple.clone: new Parameters named prefix.<name>, with the value or an initializer
params = ParameterTuple(nn.Dense(3, 2).trainable_params())
zeros = params.clone(prefix="moments", init="zeros")
same = params.clone(prefix="copy")
assert [p.name for p in zeros] == ["moments." + p.name for p in params]
close(zeros[0], np.zeros((2, 3)))
close(same[0], params[0].asnumpy())
print("ok")
