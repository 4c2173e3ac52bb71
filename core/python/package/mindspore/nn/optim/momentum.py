"""mindspore.nn.optim.momentum: Momentum as MindSpore's ApplyMomentum computes it. nn.Momentum is
the core (C++) optimizer; given parameter groups, a dynamic learning rate or a loss scale it
builds this Python one."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer, route_to_python
from mindspore.nn.optim.sgd import _float_arg

__all__ = ["Momentum"]

_CoreMomentum = _nn.Momentum


class Momentum(Optimizer):
    """moments = moments * momentum + grad; param -= lr * moments (lr * (grad + momentum *
    moments) with use_nesterov)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _float_arg(momentum, "momentum", "Momentum")
        if not isinstance(use_nesterov, bool):
            raise TypeError("For 'Momentum', the type of 'use_nesterov' should be bool, but got type '%s'."
                            % type(use_nesterov).__name__)
        self.use_nesterov = use_nesterov
        self.momentum = Parameter(Tensor(momentum, _ms.float32), name="momentum", requires_grad=False)
        self.moments = self._state("moments")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        momentum = ops.cast(self.momentum, _ms.float32)
        for p, g, moment, lr in zip(self._parameters, gradients, self.moments, lrs):
            ops.assign(moment, moment * ops.cast(momentum, moment.dtype) + g)
            lr = ops.cast(lr, p.dtype)
            if self.use_nesterov:
                ops.assign(p, p - (g * lr + moment * ops.cast(momentum, p.dtype) * lr))
            else:
                ops.assign(p, p - lr * moment)
        return True


route_to_python(_CoreMomentum, Momentum)
