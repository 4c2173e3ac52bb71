"""nn.dynamic_lr lists and nn.learning_rate_schedule Cells against closed forms, MindSpore's
documented examples, argument errors, and optimizers driven by a list, a 1-D Tensor or a schedule."""
import math

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor
from mindspore.nn import dynamic_lr, learning_rate_schedule

from _check import close, raises

# MindSpore's documented outputs.
assert nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]) == [0.1] * 2 + [0.05] * 3 + [0.01] * 5
assert np.allclose(nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1), [0.1, 0.1, 0.09, 0.09, 0.081, 0.081])
assert np.allclose(nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True),
                   [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657])
assert np.allclose(nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1, True),
                   [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574])
assert np.allclose(nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2), [0.1, 0.1, 0.055, 0.055, 0.01, 0.01])
assert np.allclose(nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5),
                   [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01])
assert nn.warmup_lr(0.1, 6, 2, 2) == [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
assert dynamic_lr.warmup_lr is nn.warmup_lr

# Closed forms without stairs.
assert np.allclose(nn.natural_exp_decay_lr(0.2, 0.3, 5, 1, 2), [0.2 * math.exp(-0.3 * e) for e in range(5)])
assert np.allclose(nn.inverse_decay_lr(0.2, 0.3, 5, 1, 2), [0.2 / (1 + 0.3 * e / 2) for e in range(5)])
up = nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 1.0, update_decay_epoch=True)
assert np.allclose(up, [0.1, 0.055, 0.01, 0.0325, 0.01, 0.025])

raises(TypeError, nn.exponential_decay_lr, 1, 0.9, 6, 2, 1, match="'learning_rate' must be float")
raises(ValueError, nn.exponential_decay_lr, -0.1, 0.9, 6, 2, 1, match="must > 0")
raises(ValueError, nn.cosine_decay_lr, 0.1, 0.01, 6, 2, 2, match="should be greater than the 'min_lr'")
raises(ValueError, nn.piecewise_constant_lr, [5, 2], [0.1, 0.2], match="sorted")
raises(ValueError, nn.piecewise_constant_lr, [2, 5], [0.1], match="same with the size")
raises(TypeError, nn.exponential_decay_lr, 0.1, 0.9, 6, 2, 1, 1, match="'is_stair' must be a bool")

# Schedules as Cells: float32 0-D results of the step.
step = Tensor(6, ms.int32)
cases = [
    (nn.ExponentialDecayLR(0.1, 0.9, 4), 0.1 * 0.9 ** 1.5),
    (nn.ExponentialDecayLR(0.1, 0.9, 4, True), 0.1 * 0.9),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4), 0.1 * math.exp(-0.9 * 1.5)),
    (nn.InverseDecayLR(0.1, 0.9, 4, True), 0.1 / 1.9),
    (nn.CosineDecayLR(0.01, 0.1, 8), 0.01 + 0.045 * (1 + math.cos(math.pi * 6 / 8))),
    (nn.CosineDecayLR(0.01, 0.1, 4), 0.01),
    (nn.PolynomialDecayLR(0.1, 0.01, 8, 0.5), 0.09 * (1 - 6 / 8) ** 0.5 + 0.01),
    (nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0, True), 0.09 * (1 - 6 / 8) + 0.01),
    (nn.WarmUpLR(0.1, 8), 0.1 * 6 / 8),
    (nn.WarmUpLR(0.1, 4), 0.1),
]
for schedule, expected in cases:
    out = schedule(step)
    assert out.dtype == ms.float32 and out.shape == (), (type(schedule).__name__, out.dtype, out.shape)
    close(out, np.float32(expected))
assert isinstance(cases[0][0], learning_rate_schedule.LearningRateSchedule)
raises(ValueError, nn.WarmUpLR, 0.1, 0, match="must > 0")


class Halving(nn.LearningRateSchedule):
    """A schedule written in a script: halves every step."""

    def construct(self, global_step):
        return 0.8 * ops_pow(0.5, global_step)


def ops_pow(base, exponent):
    return ms.ops.pow(Tensor(base, ms.float32), ms.ops.cast(exponent, ms.float32))


# Optimizers read one rate per step: a list, a 1-D Tensor, a schedule (global_step advances).
def sgd_path(learning_rate, steps=4):
    w = ms.Parameter(Tensor(np.float32([1.0, -2.0])), name="w")
    opt = nn.SGD([w], learning_rate=learning_rate)
    seen = []
    for _ in range(steps):
        before = w.asnumpy().copy()
        opt((Tensor(np.float32([1.0, 1.0])),))
        seen.append(float(before[0] - w.asnumpy()[0]))
    return np.array(seen), opt


rates = [0.4, 0.3, 0.2, 0.1]
for given in (rates, Tensor(np.float32(rates))):
    seen, opt = sgd_path(given)
    assert np.allclose(seen, rates, atol=1e-6), seen
    assert int(opt.global_step.asnumpy()[0]) == 4
seen, _ = sgd_path(Halving())
assert np.allclose(seen, [0.8, 0.4, 0.2, 0.1], atol=1e-6), seen
seen, _ = sgd_path(nn.WarmUpLR(0.4, 4))
assert np.allclose(seen, [0.0, 0.1, 0.2, 0.3], atol=1e-6), seen
seen, _ = sgd_path([0.5, 0.25], steps=3)  # past the list's end the rate is 0, as MindSpore's CPU gives
assert np.allclose(seen, [0.5, 0.25, 0.0], atol=1e-6), seen

# get_lr / get_lr_parameter with group rates.
a = ms.Parameter(Tensor(np.float32([1.0])), name="a")
b = ms.Parameter(Tensor(np.float32([1.0])), name="b")
opt = nn.Momentum([{"params": [a], "lr": [0.5, 0.25]}, {"params": [b]}], learning_rate=0.1, momentum=0.0)
lrs = opt.get_lr()
assert len(lrs) == 2 and np.isclose(float(lrs[0].asnumpy()), 0.5) and np.isclose(float(lrs[1].asnumpy()), 0.1)
assert isinstance(opt.get_lr_parameter(a), nn.LearningRateSchedule)
assert isinstance(opt.get_lr_parameter(b), ms.Parameter)
raises(TypeError, nn.SGD, [a], learning_rate="fast", match="type of 'learning_rate'")
raises(ValueError, nn.SGD, [a], learning_rate=Tensor(np.zeros((2, 2), np.float32)), match="should be a 0 or 1")
print("ok")
