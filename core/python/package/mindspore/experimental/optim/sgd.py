"""experimental.optim.SGD: MindSpore's SGD kernel per group. With weight decay g += wd p; with
momentum the first step's velocity is g itself, later v = momentum v + (1 - dampening) g; the
step is v, or g + momentum v with nesterov; p -= lr step."""
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.experimental.optim.optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False):
        if isinstance(lr, bool) or not isinstance(lr, (int, float, Tensor)):
            raise TypeError("For 'SGD', the 'lr' must be int, float or Tensor, but got %s." % type(lr).__name__)
        if not isinstance(lr, Tensor) and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)):
            raise TypeError("For 'SGD', the 'momentum' must be int or float, but got %s." % type(momentum).__name__)
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        for name, flag in (("nesterov", nesterov), ("maximize", maximize)):
            if not isinstance(flag, bool):
                raise TypeError("For 'SGD', the '%s' must be bool, but got %s." % (name, type(flag).__name__))
        defaults = dict(lr=lr, momentum=float(momentum), dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, grad_centralization=False)
        super().__init__(params, defaults)
        for group in self.param_groups:
            if isinstance(group["dampening"], bool) or not isinstance(group["dampening"], (int, float)):
                raise TypeError("For 'SGD', the 'dampening' must be int or float.")
            group["dampening"] = float(group["dampening"])
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             "equal to 0.0, but got 'momentum' {}, 'dampening' {}".format(momentum, dampening))
        self.accum = self._state("accum", 0.0)
        self.stat = self._state("stat", 1.0)

    def construct(self, gradients):
        for group, params, grads, where in self._groups(gradients):
            lr = ops.cast(group["lr"], mstype.float32)
            momentum, dampening = group["momentum"], group["dampening"]
            for p, g, accum, stat in zip(params, grads, self.accum[where], self.stat[where]):
                if group["weight_decay"] > 0:
                    g = g + p * group["weight_decay"]
                if momentum > 0:
                    first = stat > 0
                    ops.assign(accum, ops.select(first, g, accum * momentum + g * (1.0 - dampening)))
                    step = g + accum * momentum if group["nesterov"] else accum
                else:
                    step = g
                ops.assign(p, p - ops.cast(lr, p.dtype) * step)
                ops.assign(stat, ops.zeros_like(stat))
        return True
