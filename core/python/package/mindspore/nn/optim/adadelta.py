"""mindspore.nn.optim.adadelta: Adadelta as MindSpore's ApplyAdadelta computes it."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import check_float_range_closed, check_non_negative_float, check_value_type

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """accum = rho * accum + (1 - rho) * g^2; update = sqrt(accum_update + eps) / sqrt(accum + eps) * g;
    accum_update = rho * accum_update + (1 - rho) * update^2; param -= lr * update."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_value_type("rho", rho, [float], self.cls_name)
        check_float_range_closed(rho, 0.0, 1.0, "rho", self.cls_name)
        check_value_type("epsilon", epsilon, [float], self.cls_name)
        check_non_negative_float(epsilon, "epsilon", self.cls_name)
        self.rho, self.epsilon = rho, epsilon
        self.accum = self._state("accum")
        self.accum_update = self._state("accum_update")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        for p, g, accum, accum_update, lr in zip(self._parameters, gradients, self.accum, self.accum_update, lrs):
            ops.assign(accum, accum * self.rho + g * g * (1.0 - self.rho))
            update = ops.sqrt(accum_update + self.epsilon) / ops.sqrt(accum + self.epsilon) * g
            ops.assign(accum_update, accum_update * self.rho + update * update * (1.0 - self.rho))
            ops.assign(p, p - ops.cast(lr, p.dtype) * update)
        return True


_nn.Adadelta = Adadelta
