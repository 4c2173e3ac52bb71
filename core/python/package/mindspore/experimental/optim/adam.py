"""experimental.optim.Adam: MindSpore's Adam kernels per group (weight decay as L2 on the
gradient): m += (1 - b1)(g - m), v += (1 - b2)(g^2 - v), p -= lr sqrt(1 - b2^t) / (1 - b1^t)
m / (sqrt(v) + eps); with amsgrad the running maximum of v takes v's place."""
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.experimental.optim.optimizer import Optimizer

__all__ = ["Adam"]


def _check_adam(lr, betas, eps, weight_decay):
    if not isinstance(lr, Tensor) and lr < 0.0:
        raise ValueError("Invalid learning rate: {}".format(lr))
    if eps < 0.0:
        raise ValueError("Invalid epsilon value: {}".format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    if weight_decay < 0.0:
        raise ValueError("Invalid weight_decay value: {}".format(weight_decay))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False):
        _check_adam(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize)
        super().__init__(params, defaults)
        self.exp_avg = self._state("exp_avg")
        self.exp_avg_sq = self._state("exp_avg_sq")
        self.max_exp_avg_sq = self._state("max_exp_avg_sq")
        self.state_step = Parameter(Tensor(0, mstype.int32), name="state_step", requires_grad=False)

    def construct(self, gradients):
        ops.assign_add(self.state_step, Tensor(1, mstype.int32))
        t = ops.cast(self.state_step, mstype.float32)
        for group, params, grads, where in self._groups(gradients):
            beta1, beta2 = group["betas"]
            lr = ops.cast(group["lr"], mstype.float32)
            step_size = lr * ops.sqrt(1.0 - ops.pow(beta2, t)) / (1.0 - ops.pow(beta1, t))
            for p, g, m, v, vmax in zip(params, grads, self.exp_avg[where], self.exp_avg_sq[where],
                                        self.max_exp_avg_sq[where]):
                if group["weight_decay"] != 0:
                    g = g + p * group["weight_decay"]
                ops.assign(m, m + (g - m) * (1.0 - beta1))
                ops.assign(v, v + (g * g - v) * (1.0 - beta2))
                second = v
                if group["amsgrad"]:
                    ops.assign(vmax, ops.maximum(vmax, v))
                    second = vmax
                ops.assign(p, p - ops.cast(step_size, p.dtype) * m / (ops.sqrt(second) + group["eps"]))
        return True
