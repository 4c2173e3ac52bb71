"""mindspore.nn.learning_rate_schedule: learning rates computed at each step from the optimizer's
global_step, as Cells (LearningRateSchedule is the base a script subclasses with its own
construct(global_step)). Composed from registry ops, so the debugger shows the computation.
"""
import math

import mindspore as _ms
import mindspore.nn as _nn
from mindspore import ops
from mindspore.train._checks import (check_bool, check_non_negative_float, check_positive_float,
                                     check_positive_int)

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
           "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR"]


class LearningRateSchedule(_nn.Cell):
    """The base of the schedules: construct(global_step) returns the step's learning rate, a 0-D
    float32 Tensor."""

    def construct(self, global_step):
        raise NotImplementedError


def _step(global_step):
    return ops.cast(global_step, _ms.float32)


class _DecayLR(LearningRateSchedule):
    """The decays of learning_rate by decay_rate over decay_steps (p = step / decay_steps)."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        who = type(self).__name__
        check_positive_float(learning_rate, "learning_rate", who)
        check_positive_float(decay_rate, "decay_rate", who)
        check_positive_int(decay_steps, "decay_steps", who)
        check_bool(is_stair, "is_stair", who)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def _p(self, global_step):
        p = _step(global_step) / self.decay_steps
        return ops.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """learning_rate * decay_rate ** p."""

    def construct(self, global_step):
        return self.learning_rate * ops.pow(_ms.Tensor(self.decay_rate, _ms.float32), self._p(global_step))


class NaturalExpDecayLR(_DecayLR):
    """learning_rate * e ** (-decay_rate * p)."""

    def construct(self, global_step):
        return self.learning_rate * ops.exp(-self.decay_rate * self._p(global_step))


class InverseDecayLR(_DecayLR):
    """learning_rate / (1 + decay_rate * p)."""

    def construct(self, global_step):
        return self.learning_rate / (1.0 + self.decay_rate * self._p(global_step))


class CosineDecayLR(LearningRateSchedule):
    """min_lr + (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        check_non_negative_float(min_lr, "min_lr", "CosineDecayLR")
        check_positive_float(max_lr, "max_lr", "CosineDecayLR")
        if min_lr >= max_lr:
            raise ValueError("For 'CosineDecayLR', the 'max_lr' should be greater than the 'min_lr', but got "
                             "'max_lr' value: %s, 'min_lr' value: %s." % (max_lr, min_lr))
        check_positive_int(decay_steps, "decay_steps", "CosineDecayLR")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps

    def construct(self, global_step):
        p = ops.minimum(_step(global_step), float(self.decay_steps)) / self.decay_steps
        return self.min_lr + 0.5 * (self.max_lr - self.min_lr) * (1.0 + ops.cos(math.pi * p))


class PolynomialDecayLR(LearningRateSchedule):
    """(learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate, p the step over
    decay_steps (capped at 1, or decay_steps raised to the next multiple when update_decay_steps)."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        who = "PolynomialDecayLR"
        check_positive_float(learning_rate, "learning_rate", who)
        check_non_negative_float(end_learning_rate, "end_learning_rate", who)
        check_positive_int(decay_steps, "decay_steps", who)
        check_positive_float(power, "power", who)
        check_bool(update_decay_steps, "update_decay_steps", who)
        self.learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.decay_steps = decay_steps
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _step(global_step)
        if self.update_decay_steps:
            periods = ops.maximum(ops.ceil(step / self.decay_steps), 1.0)
            p = step / (periods * self.decay_steps)
        else:
            p = ops.minimum(step, float(self.decay_steps)) / self.decay_steps
        return (self.learning_rate - self.end_learning_rate) * ops.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    """learning_rate * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        check_positive_float(learning_rate, "learning_rate", "WarmUpLR")
        check_positive_int(warmup_steps, "warmup_steps", "WarmUpLR")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps

    def construct(self, global_step):
        return self.learning_rate * ops.minimum(_step(global_step), float(self.warmup_steps)) / self.warmup_steps


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
_nn.learning_rate_schedule = __import__("sys").modules[__name__]
