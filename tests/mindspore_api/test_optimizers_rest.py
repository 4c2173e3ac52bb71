"""RMSProp (plain, centered, momentum), Adagrad (update_slots), Adadelta, Lamb, LARS (over Python
and core Momentum, use_clip, lars_filter), FTRL (lr_power -0.5 and other), ProximalAdagrad and
LazyAdam against NumPy implementations of MindSpore's documented updates over four steps, with
parameter groups where MindSpore allows them; state names, argument errors, exports, and a
TrainOneStepCell training step."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
import mindspore.nn.optim as optim
from mindspore import Tensor

from _check import raises
from _optim_case import OptimCase, check

_case = OptimCase(5, "bias")
W0, B0, GRADS, params, run = _case.W0, _case.B0, _case.GRADS, _case.params, _case.run


def np_run(update, state_init, wds=(0.0, 0.0), loss_scale=1.0):
    """Runs update(i, p, g, state, t) over GRADS with coupled decay, returns params and states."""
    ps = [W0.astype(np.float64), B0.astype(np.float64)]
    states = [state_init(p) for p in ps]
    for t, grads in enumerate(GRADS, 1):
        for i, g in enumerate(grads):
            g = g.astype(np.float64) + wds[i] * ps[i]
            ps[i] = update(i, ps[i], g, states[i], t)
    return ps, states


# RMSProp: plain, centered, with momentum and groups.
def np_rmsprop(lrs, decay, momentum, eps, centered, wds=(0.0, 0.0)):
    def update(i, p, g, s, t):
        s["ms"] = decay * s["ms"] + (1 - decay) * g * g
        s["mg"] = decay * s["mg"] + (1 - decay) * g
        denom = s["ms"] - s["mg"] ** 2 if centered else s["ms"]
        s["mom"] = momentum * s["mom"] + lrs[i] * g / np.sqrt(denom + eps)
        return p - s["mom"]
    return np_run(update, lambda p: {"ms": 0 * p, "mg": 0 * p, "mom": 0 * p}, wds)


for centered in (False, True):
    got, opt = run(lambda p: nn.RMSProp(p, 0.01, 0.8, 0.5, 1e-6, centered=centered))
    want, states = np_rmsprop([0.01, 0.01], 0.8, 0.5, 1e-6, centered)
    check(got, want, "RMSProp centered=%s" % centered)
    check([m.asnumpy() for m in opt.moment], [s["mom"] for s in states], "RMSProp moment")
    assert [m.name for m in opt.ms] == ["mean_square.w", "mean_square.bias"]
    assert hasattr(opt, "mg") == centered
got, _ = run(lambda p: nn.RMSProp([{"params": [p[0]], "lr": 0.05, "weight_decay": 0.1}, {"params": [p[1]]}],
                                  0.01, momentum=0.3))
check(got, np_rmsprop([0.05, 0.01], 0.9, 0.3, 1e-10, False, wds=(0.1, 0.0))[0], "RMSProp groups")
raises(ValueError, nn.RMSProp, params(), epsilon=0.0, match="'epsilon' must be float and must > 0")
raises(TypeError, nn.RMSProp, params(), momentum=1, match="'momentum' should be 'float'")
raises(TypeError, nn.RMSProp, params(), centered=1, match="'centered' must be a bool")


# Adagrad, with and without update_slots; groups.
def np_adagrad(lrs, accum, update_slots, wds=(0.0, 0.0)):
    def update(i, p, g, s, t):
        if update_slots:
            s["a"] = s["a"] + g * g
        return p - lrs[i] * g / np.sqrt(s["a"])
    return np_run(update, lambda p: {"a": np.full_like(p, accum)}, wds)


got, opt = run(lambda p: nn.Adagrad(p, accum=0.2, learning_rate=0.1))
want, states = np_adagrad([0.1, 0.1], 0.2, True)
check(got, want, "Adagrad")
check([a.asnumpy() for a in opt.accum], [s["a"] for s in states], "Adagrad accum")
assert [a.name for a in opt.accum] == ["accum.w", "accum.bias"]
got, _ = run(lambda p: nn.Adagrad(p, accum=0.5, learning_rate=0.1, update_slots=False))
check(got, np_adagrad([0.1, 0.1], 0.5, False)[0], "Adagrad update_slots=False")
got, _ = run(lambda p: nn.Adagrad([{"params": [p[0]], "lr": 0.3}, {"params": [p[1]], "weight_decay": 0.2}]))
check(got, np_adagrad([0.3, 0.001], 0.1, True, wds=(0.0, 0.2))[0], "Adagrad groups")
raises(ValueError, nn.Adagrad, params(), accum=-0.1, match="'accum' must be float and must >= 0")


# Adadelta.
def np_adadelta(lr, rho, eps, wds=(0.0, 0.0)):
    def update(i, p, g, s, t):
        s["a"] = rho * s["a"] + (1 - rho) * g * g
        u = np.sqrt(s["u"] + eps) / np.sqrt(s["a"] + eps) * g
        s["u"] = rho * s["u"] + (1 - rho) * u * u
        return p - lr * u
    return np_run(update, lambda p: {"a": 0 * p, "u": 0 * p}, wds)


got, opt = run(lambda p: nn.Adadelta(p, 0.5, rho=0.8, epsilon=1e-4, weight_decay=0.05))
want, states = np_adadelta(0.5, 0.8, 1e-4, wds=(0.05, 0.05))
check(got, want, "Adadelta")
check([a.asnumpy() for a in opt.accum_update], [s["u"] for s in states], "Adadelta accum_update")
raises(ValueError, nn.Adadelta, params(), rho=1.5, match="'rho' must be in range of [0.0, 1.0]")


# Lamb: decoupled decay (not for 'bias'-free... every non beta/gamma name decays), trust ratio.
def np_lamb(lr, b1, b2, eps, wd, first_t=1, decays=(True, True)):
    ps = [W0.astype(np.float64), B0.astype(np.float64)]
    m, v = [0 * p for p in ps], [0 * p for p in ps]
    for k, grads in enumerate(GRADS):
        t = first_t + k
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            mh, vh = m[i] / (1 - b1 ** t), v[i] / (1 - b2 ** t)
            w_norm, g_norm = np.linalg.norm(ps[i]), np.linalg.norm(g)
            u_norm = np.linalg.norm(mh / np.sqrt(vh + eps) + wd * ps[i])
            ratio = np.clip(w_norm / u_norm, 0, 10) if w_norm > 0 and g_norm > 0 else 1.0
            u = mh / (np.sqrt(vh) + eps) + (wd * ps[i] if decays[i] else 0)
            ps[i] = ps[i] - lr * ratio * u
    return ps


got, opt = run(lambda p: nn.Lamb(p, 0.01, 0.8, 0.9, 1e-6, weight_decay=0.1))
check(got, np_lamb(0.01, 0.8, 0.9, 1e-6, 0.1), "Lamb")
assert [m.name for m in opt.moments1] == ["lamb_m.w", "lamb_m.bias"] and int(opt.global_step.asnumpy()[0]) == 4
# A dynamic rate advances global_step first, so MindSpore's bias correction starts at t = 2.
got, _ = run(lambda p: nn.Lamb(p, [0.01] * 4, 0.8, 0.9, 1e-6))
check(got, np_lamb(0.01, 0.8, 0.9, 1e-6, 0.0, first_t=2), "Lamb with a list of rates")
raises(TypeError, nn.Lamb, params(), match="learning_rate")


# LARS over Momentum (Python: a loss scale; core: a fixed rate), use_clip, lars_filter.
def np_lars_momentum(lr, momentum, wd, eps, coef, clip, lars_flags, loss_scale=1.0):
    ps = [W0.astype(np.float64), B0.astype(np.float64)]
    moments = [0 * p for p in ps]
    for grads in GRADS:
        for i, g in enumerate(grads):
            g = g.astype(np.float64) / loss_scale
            if lars_flags[i]:
                w_norm, g_norm = np.linalg.norm(ps[i]), np.linalg.norm(g)
                ratio = coef * w_norm / (g_norm + wd * w_norm + eps)
                if clip:
                    ratio = min(ratio / lr, 1.0)
                g = ratio * (g + wd * ps[i])
            moments[i] = moments[i] * momentum + g
            ps[i] = ps[i] - lr * moments[i]
    return ps


for clip in (False, True):
    got, _ = run(lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.01, loss_scale=2.0), coefficient=0.05,
                                   use_clip=clip))
    check(got, np_lars_momentum(0.1, 0.9, 0.01, 1e-5, 0.05, clip, (True, False), 2.0), "LARS use_clip=%s" % clip)
got, opt = run(lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.01), coefficient=0.05,
                                 lars_filter=lambda x: True))
assert type(opt.opt).__module__ == "mindspore.nn", "a fixed-rate Momentum is the core optimizer"
check(got, np_lars_momentum(0.1, 0.9, 0.01, 1e-5, 0.05, False, (True, True)), "LARS over core Momentum", 1e-4, 1e-5)
raises(TypeError, nn.LARS, "sgd", match="'optimizer'")
raises(TypeError, nn.LARS, nn.Momentum(params(), 0.1, 0.9), epsilon=1, match="'epsilon' should be 'float'")


# FTRL, lr_power -0.5 (sqrt) and another power; groups with weight decay only.
def np_ftrl(lr, accum, lr_power, l1, l2, wds=(0.0, 0.0)):
    def update(i, p, g, s, t):
        new = s["a"] + g * g
        s["l"] = s["l"] + g - (new ** -lr_power - s["a"] ** -lr_power) / lr * p
        quad = new ** -lr_power / lr + 2 * l2
        s["a"] = new
        return np.where(np.abs(s["l"]) > l1, (np.sign(s["l"]) * l1 - s["l"]) / quad, 0.0)
    return np_run(update, lambda p: {"a": np.full_like(p, accum), "l": 0 * p}, wds)


for power in (-0.5, -0.3):
    got, opt = run(lambda p: nn.FTRL(p, 0.2, 0.1, power, l1=0.05, l2=0.1))
    want, states = np_ftrl(0.1, 0.2, power, 0.05, 0.1)
    check(got, want, "FTRL lr_power=%s" % power)
    check([x.asnumpy() for x in opt.linear], [s["l"] for s in states], "FTRL linear")
assert [m.name for m in opt.moments] == ["moments.w", "moments.bias"]
got, _ = run(lambda p: nn.FTRL([{"params": [p[0]], "weight_decay": 0.1}, {"params": [p[1]]}], learning_rate=0.1))
check(got, np_ftrl(0.1, 0.1, -0.5, 0.0, 0.0, wds=(0.1, 0.0))[0], "FTRL groups")
raises(ValueError, nn.FTRL, params(), lr_power=0.5, match="'lr_power' must be float and must <= 0")
raises(ValueError, nn.FTRL, [{"params": params(), "lr": 0.1}], match="group learning rate are currently not supported")
raises(ValueError, nn.FTRL, params(), learning_rate=[0.1, 0.2], match="dynamic learning rate")


# ProximalAdagrad with l1 / l2 and groups.
def np_proximal(lrs, accum, l1, l2, wds=(0.0, 0.0)):
    def update(i, p, g, s, t):
        s["a"] = s["a"] + g * g
        v = p - lrs[i] * g / np.sqrt(s["a"])
        return np.sign(v) / (1 + lrs[i] * l2) * np.maximum(np.abs(v) - lrs[i] * l1, 0)
    return np_run(update, lambda p: {"a": np.full_like(p, accum)}, wds)


got, _ = run(lambda p: nn.ProximalAdagrad(p, 0.3, 0.1, l1=0.2, l2=0.1))
check(got, np_proximal([0.1, 0.1], 0.3, 0.2, 0.1)[0], "ProximalAdagrad")
got, _ = run(lambda p: nn.ProximalAdagrad([{"params": [p[0]], "lr": 0.2}, {"params": [p[1]]}], learning_rate=0.05))
check(got, np_proximal([0.2, 0.05], 0.1, 0.0, 0.0)[0], "ProximalAdagrad groups")
raises(ValueError, nn.ProximalAdagrad, params(), l2=-1.0, match="'l2' must be float and must >= 0")


# LazyAdam (dense gradients: Adam's kernel), Nesterov, groups.
def np_adam(lrs, b1, b2, eps, nesterov):
    ps = [W0.astype(np.float64), B0.astype(np.float64)]
    m, v = [0 * p for p in ps], [0 * p for p in ps]
    for t, grads in enumerate(GRADS, 1):
        for i, g in enumerate(grads):
            m[i] = m[i] + (g - m[i]) * (1 - b1)
            v[i] = v[i] + (g * g - v[i]) * (1 - b2)
            d = m[i] * b1 + g * (1 - b1) if nesterov else m[i]
            ps[i] = ps[i] - lrs[i] * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * d / (np.sqrt(v[i]) + eps)
    return ps


for nesterov in (False, True):
    got, opt = run(lambda p: nn.LazyAdam(p, 0.01, 0.8, 0.9, 1e-6, use_nesterov=nesterov))
    check(got, np_adam([0.01, 0.01], 0.8, 0.9, 1e-6, nesterov), "LazyAdam nesterov=%s" % nesterov)
assert [m.name for m in opt.moment2] == ["moment2.w", "moment2.bias"]
got, _ = run(lambda p: nn.LazyAdam([{"params": [p[0]], "lr": 0.02}, {"params": [p[1]]}], 0.01))
check(got, np_adam([0.02, 0.01], 0.9, 0.999, 1e-8, False), "LazyAdam groups")
raises(ValueError, nn.LazyAdam, params(), beta2=1.0, match="For 'LazyAdam', the 'beta2' must be in range of (0.0, 1.0)")

# Exports: mindspore.nn and mindspore.nn.optim hold the same classes, all nn.Optimizers.
for name in ("RMSProp", "Adagrad", "Adadelta", "Lamb", "LARS", "FTRL", "ProximalAdagrad", "LazyAdam"):
    assert getattr(optim, name) is getattr(nn, name), name
    assert issubclass(getattr(nn, name), nn.Optimizer), name

# One training step of a Dense through TrainOneStepCell with RMSProp, in both modes.
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.RMSProp(net.trainable_params(), 0.1))
    step(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 1), np.float32)))
    # grad of the mean square loss is 2 * 3 = 6 per weight; ms = 0.1 * 36; step = 0.1 * 6 / sqrt(3.6 + 1e-10)
    check([net.weight.asnumpy()], [np.full((1, 3), 1 - 0.6 / np.sqrt(3.6))], "TrainOneStepCell RMSProp (mode %d)" % mode)
ms.set_context(mode=ms.PYNATIVE_MODE)

# Optimizer.target: updates run on the host; the optimizers MindSpore moves to the host take "CPU".
adam = nn.Adam(nn.Dense(2, 2).trainable_params())
assert adam.target == "CPU"
adam.target = "CPU"
raises(ValueError, setattr, adam, "target", "GPU", match="cannot be set to 'GPU' or 'Ascend' in the 'CPU' environment")
raises(ValueError, setattr, adam, "target", "TPU", match="must be one of ['CPU', 'Ascend' ,'GPU']")
raises(NotImplementedError, setattr, nn.SGD(nn.Dense(2, 2).trainable_params()), "target", "CPU")
ftrl = nn.FTRL(nn.Dense(2, 2).trainable_params())
assert ftrl.unique is True
ftrl.unique = False
assert ftrl.unique is False
raises(TypeError, setattr, ftrl, "unique", 1, match="the property 'unique' must be bool")
