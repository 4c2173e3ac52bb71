"""mindspore.nn.optim.ada_max: AdaMax (Adam with the infinity norm) as MindSpore's ApplyAdaMax."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.adam import check_betas_eps
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    """m = beta1 * m + (1 - beta1) * g; v = max(beta2 * v, |g|);
    param -= lr / (1 - beta1^t) * m / (v + eps)."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas_eps("AdaMax", beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.beta1_power = Parameter(Tensor(1.0, _ms.float32), name="beta1_power", requires_grad=False)
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        ops.assign(self.beta1_power, self.beta1_power * self.beta1)
        for p, g, m, v, lr in zip(self._parameters, gradients, self.moment1, self.moment2, lrs):
            ops.assign(m, self.beta1 * m + (1.0 - self.beta1) * g)
            ops.assign(v, ops.maximum(self.beta2 * v, ops.abs(g)))
            step = ops.cast(lr / (1.0 - self.beta1_power), p.dtype)
            ops.assign(p, p - step * m / (v + self.eps))
        return True


_nn.AdaMax = AdaMax
