"""mindspore.nn.optim.proximal_ada_grad: ProximalAdagrad as MindSpore's ApplyProximalAdagrad computes it."""
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.train._checks import check_bool, check_non_negative_float, check_value_type

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    """accum += g^2; v = param - lr * g / sqrt(accum);
    param = sign(v) / (1 + lr * l2) * max(|v| - lr * l1, 0)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            check_value_type(name, value, [float], self.cls_name)
            check_non_negative_float(value, name, self.cls_name)
        check_bool(use_locking, "use_locking", self.cls_name)
        self.l1, self.l2, self.use_locking = l1, l2, use_locking
        self.accum = self._state("accum", accum)

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        for p, g, accum, lr in zip(self._parameters, gradients, self.accum, lrs):
            lr = ops.cast(lr, p.dtype)
            ops.assign(accum, accum + g * g)
            v = p - lr * g / ops.sqrt(accum)
            shrunk = ops.maximum(ops.abs(v) - lr * self.l1, ops.zeros_like(v))
            ops.assign(p, ops.sign(v) / (1.0 + lr * self.l2) * shrunk)
        return True


_nn.ProximalAdagrad = ProximalAdagrad
