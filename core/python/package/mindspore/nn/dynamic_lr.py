"""mindspore.nn.dynamic_lr: learning rates computed ahead of time, one per step, as a Python list
(an optimizer's learning_rate takes the list and reads element global_step at each update).

Each function works per epoch (current_epoch = floor(step / step_per_epoch)), as MindSpore's does.
"""
import math

import mindspore.nn as _nn
from mindspore.train._checks import (check_bool, check_non_negative_float, check_positive_float,
                                     check_positive_int)

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone, learning_rates):
    """learning_rates[j] for the steps before milestone[j]; milestone[-1] steps in all."""
    who = "piecewise_constant_lr"
    if not isinstance(milestone, (list, tuple)):
        raise TypeError("For '%s', the type of 'milestone' must be list or tuple, but got %s."
                        % (who, type(milestone).__name__))
    if not isinstance(learning_rates, (list, tuple)):
        raise TypeError("For '%s', the type of 'learning_rates' must be list or tuple, but got %s."
                        % (who, type(learning_rates).__name__))
    if len(milestone) != len(learning_rates):
        raise ValueError("For '%s', the size of 'milestone' must be same with the size of 'learning_rates', "
                         "but got 'milestone' size: %d, 'learning_rates' size: %d."
                         % (who, len(milestone), len(learning_rates)))
    last = 0
    for m in milestone:
        check_positive_int(m, "milestone", who)
        if m <= last:
            raise ValueError("For '%s', the 'milestone' must be a sorted list, but got %s." % (who, list(milestone)))
        last = m
    for lr in learning_rates:
        if isinstance(lr, bool) or not isinstance(lr, float):
            raise TypeError("For '%s', the elements of 'learning_rates' must be float, but got %s."
                            % (who, type(lr).__name__))
    lrs, start = [], 0
    for end, lr in zip(milestone, learning_rates):
        lrs.extend([lr] * (end - start))
        start = end
    return lrs


def _epochs(total_step, step_per_epoch):
    return [math.floor(i / step_per_epoch) for i in range(total_step)]


def _decay(who, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair, rate_at):
    """[rate_at(p)], p = current_epoch / decay_epoch (floored when is_stair), after the checks."""
    check_positive_float(learning_rate, "learning_rate", who)
    check_positive_float(decay_rate, "decay_rate", who)
    check_positive_int(total_step, "total_step", who)
    check_positive_int(step_per_epoch, "step_per_epoch", who)
    check_positive_int(decay_epoch, "decay_epoch", who)
    check_bool(is_stair, "is_stair", who)
    return [rate_at(math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch)
            for epoch in _epochs(total_step, step_per_epoch)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """learning_rate * decay_rate ** (current_epoch / decay_epoch) (floored when is_stair)."""
    return _decay("exponential_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                  is_stair, lambda p: learning_rate * decay_rate ** p)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """learning_rate * e ** (-decay_rate * current_epoch); with is_stair the epoch is rounded down to
    a multiple of decay_epoch (not divided by it, as in MindSpore)."""
    return _decay("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                  is_stair, lambda p: learning_rate * math.e ** (-decay_rate * round(p * decay_epoch)))


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """learning_rate / (1 + decay_rate * current_epoch / decay_epoch) (floored when is_stair)."""
    return _decay("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                  is_stair, lambda p: learning_rate / (1 + decay_rate * p))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """min_lr + (max_lr - min_lr) * (1 + cos(pi * min(current_epoch, decay_epoch) / decay_epoch)) / 2."""
    who = "cosine_decay_lr"
    check_non_negative_float(min_lr, "min_lr", who)
    check_positive_float(max_lr, "max_lr", who)
    if min_lr >= max_lr:
        raise ValueError("For '%s', the 'max_lr' should be greater than the 'min_lr', but got 'max_lr' value: %s, "
                         "'min_lr' value: %s." % (who, max_lr, min_lr))
    check_positive_int(total_step, "total_step", who)
    check_positive_int(step_per_epoch, "step_per_epoch", who)
    check_positive_int(decay_epoch, "decay_epoch", who)
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1.0 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch))
            for epoch in _epochs(total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """(learning_rate - end_learning_rate) * (1 - epoch / decay_epoch) ** power + end_learning_rate, the
    epoch capped at decay_epoch, or decay_epoch raised to the next multiple when update_decay_epoch."""
    who = "polynomial_decay_lr"
    check_positive_float(learning_rate, "learning_rate", who)
    check_non_negative_float(end_learning_rate, "end_learning_rate", who)
    check_positive_int(total_step, "total_step", who)
    check_positive_int(step_per_epoch, "step_per_epoch", who)
    check_positive_int(decay_epoch, "decay_epoch", who)
    check_positive_float(power, "power", who)
    check_bool(update_decay_epoch, "update_decay_epoch", who)
    delta = learning_rate - end_learning_rate
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        if update_decay_epoch:
            period, reached = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            period, reached = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - reached / period) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch."""
    who = "warmup_lr"
    if isinstance(learning_rate, bool) or not isinstance(learning_rate, float):
        raise TypeError("For '%s', the 'learning_rate' must be float, but got '%s'."
                        % (who, type(learning_rate).__name__))
    check_positive_int(warmup_epoch, "warmup_epoch", who)
    check_positive_int(total_step, "total_step", who)
    check_positive_int(step_per_epoch, "step_per_epoch", who)
    return [learning_rate * min(epoch, warmup_epoch) / warmup_epoch
            for epoch in _epochs(total_step, step_per_epoch)]


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
_nn.dynamic_lr = __import__("sys").modules[__name__]
