"""mindspore.nn.optim.ada_grad: Adagrad as MindSpore's ApplyAdagrad computes it (no epsilon)."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import check_bool, check_non_negative_float, check_value_type

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """accum starts at `accum`; accum += g^2 (only with update_slots); param -= lr * g / sqrt(accum)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_value_type("accum", accum, [float], self.cls_name)
        check_non_negative_float(accum, "accum", self.cls_name)
        check_bool(update_slots, "update_slots", self.cls_name)
        self.update_slots = update_slots
        self.accum = self._state("accum", accum)

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        for p, g, accum, lr in zip(self._parameters, gradients, self.accum, lrs):
            if self.update_slots:
                ops.assign(accum, accum + g * g)
            ops.assign(p, p - ops.cast(lr, p.dtype) * g / ops.sqrt(accum))
        return True


_nn.Adagrad = Adagrad
