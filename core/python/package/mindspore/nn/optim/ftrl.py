"""mindspore.nn.optim.ftrl: FTRL (follow the regularized leader) as MindSpore's ApplyFtrl computes it."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import (check_bool, check_non_negative_float, check_non_positive_float,
                                     check_value_type)

__all__ = ["FTRL"]


class FTRL(Optimizer):
    """new = accum + g^2; linear += g - (new^-lr_power - accum^-lr_power) / lr * param;
    param = (sign(linear) * l1 - linear) / (new^-lr_power / lr + 2 * l2) where |linear| > l1, else 0;
    accum = new. A fixed learning rate only (MindSpore's kernel takes a number)."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = self.cls_name
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError("For '%s', dynamic learning rate and group learning rate are currently not supported "
                             "in FTRL, they should be unset." % who)
        check_value_type("initial_accum", initial_accum, [float], who)
        check_non_negative_float(initial_accum, "initial_accum", who)
        check_value_type("lr_power", lr_power, [float], who)
        check_non_positive_float(lr_power, "lr_power", who)
        for name, value in (("l1", l1), ("l2", l2)):
            check_value_type(name, value, [float], who)
            check_non_negative_float(value, name, who)
        check_bool(use_locking, "use_locking", who)
        self.lr_power, self.l1, self.l2, self.use_locking = lr_power, l1, l2, use_locking
        self.moments = self._state("moments", initial_accum)
        self.linear = self._state("linear")

    def _power(self, accum):
        return ops.sqrt(accum) if self.lr_power == -0.5 else ops.pow(accum, -self.lr_power)

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lr = self.get_lr()
        for p, g, accum, linear in zip(self._parameters, gradients, self.moments, self.linear):
            lr_p = ops.cast(lr, p.dtype)
            new_accum = accum + g * g
            new_power = self._power(new_accum)
            ops.assign(linear, linear + g - (new_power - self._power(accum)) / lr_p * p)
            quadratic = new_power / lr_p + 2.0 * self.l2
            value = (ops.sign(linear) * self.l1 - linear) / quadratic
            ops.assign(p, ops.select(ops.abs(linear) > self.l1, value, ops.zeros_like(value)))
            ops.assign(accum, new_accum)
        return True


_nn.FTRL = FTRL
