"""mindspore.nn.optim.rmsprop: RMSProp as MindSpore's ApplyRMSProp / ApplyCenteredRMSProp compute it."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import (check_bool, check_non_negative_float, check_positive_float,
                                     check_value_type)

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """mean_square = decay * mean_square + (1 - decay) * g^2 (centered: also mean_grad = decay *
    mean_grad + (1 - decay) * g, and the denominator is mean_square - mean_grad^2);
    moment = momentum * moment + lr * g / sqrt(denominator + epsilon); param -= moment."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = self.cls_name
        check_value_type("decay", decay, [float], who)
        check_non_negative_float(decay, "decay", who)
        check_value_type("momentum", momentum, [float], who)
        check_non_negative_float(momentum, "momentum", who)
        check_value_type("epsilon", epsilon, [float], who)
        check_positive_float(epsilon, "epsilon", who)
        check_bool(use_locking, "use_locking", who)
        check_bool(centered, "centered", who)
        self.decay, self.momentum, self.epsilon = decay, momentum, epsilon
        self.use_locking, self.centered = use_locking, centered
        if centered:
            self.mg = self._state("mean_grad")
        self.ms = self._state("mean_square")
        self.moment = self._state("moment")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        mgs = self.mg if self.centered else (None,) * self.param_length
        for p, g, ms, mg, mom, lr in zip(self._parameters, gradients, self.ms, mgs, self.moment, lrs):
            ops.assign(ms, ms * self.decay + g * g * (1.0 - self.decay))
            denominator = ms
            if mg is not None:
                ops.assign(mg, mg * self.decay + g * (1.0 - self.decay))
                denominator = ms - mg * mg
            lr = ops.cast(lr, p.dtype)
            ops.assign(mom, mom * self.momentum + lr * g / ops.sqrt(denominator + self.epsilon))
            ops.assign(p, p - mom)
        return True


_nn.RMSProp = RMSProp
