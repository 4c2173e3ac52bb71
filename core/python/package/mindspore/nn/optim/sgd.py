"""mindspore.nn.optim.sgd: SGD with MindSpore's kernel (a first step that copies the gradient into
the momentum buffer, dampening, Nesterov). nn.SGD is the core (C++) optimizer; given parameter
groups, a dynamic learning rate or a loss scale it builds this Python one."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer, _DynamicWeightDecay, route_to_python

__all__ = ["SGD"]

_CoreSGD = _nn.SGD


def _float_arg(value, name, who, rule="at least 0.0"):
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, float):
        raise TypeError("For '%s', the argument '%s' must be float type, but got %s." % (who, name, type(value)))
    if value < 0.0:
        raise ValueError("For '%s', the argument '%s' must be %s, but got '%s' %s." % (who, name, rule, name, value))
    return value


class SGD(Optimizer):
    """accum = grad on the first step, then accum * momentum + (1 - dampening) * grad; the step is
    accum (grad + momentum * accum with nesterov); param -= lr * step."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        decays = [weight_decay] + list(getattr(self, "group_weight_decay", []))
        if any(isinstance(wd, (_nn.Cell, _DynamicWeightDecay)) for wd in decays):
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        momentum = _float_arg(momentum, "momentum", "SGD")
        self.dampening = _float_arg(dampening, "dampening", "SGD")
        if not isinstance(nesterov, bool):
            raise TypeError("For 'SGD', the type of 'nesterov' should be bool, but got type '%s'."
                            % type(nesterov).__name__)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             "equal to 0.0, but got 'momentum' %s, 'dampening' %s" % (momentum, dampening))
        self.nesterov = nesterov
        self.momentum = Parameter(Tensor(momentum, _ms.float32), name="momentum", requires_grad=False)
        self.accum = self._state("accum")
        self.stat = self._state("stat", 1.0)

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        momentum = float(self.momentum.asnumpy())
        for p, g, accum, stat, lr in zip(self._parameters, gradients, self.accum, self.stat, lrs):
            step = g
            if momentum > 0.0:
                following = accum * momentum + (1.0 - self.dampening) * g
                ops.assign(accum, ops.select(stat > 0, g, following))
                ops.assign(stat, ops.zeros_like(stat))
                step = g + accum * momentum if self.nesterov else accum
            ops.assign(p, p - ops.cast(lr, p.dtype) * step)
        return True


route_to_python(_CoreSGD, SGD)
