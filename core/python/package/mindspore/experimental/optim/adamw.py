"""experimental.optim.AdamW: decoupled weight decay p *= 1 - lr wd, then m = b1 m + (1 - b1) g,
v = b2 v + (1 - b2) g^2, p -= lr / (1 - b1^t) m / (sqrt(v) / sqrt(1 - b2^t) + eps); with amsgrad
the running maximum of v takes v's place."""
from mindspore import Parameter, Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.experimental.optim.adam import _check_adam
from mindspore.experimental.optim.optimizer import Optimizer

__all__ = ["AdamW"]


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
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
            step_size = lr / (1.0 - ops.pow(beta1, t))
            correction2 = ops.sqrt(1.0 - ops.pow(beta2, t))
            for p, g, m, v, vmax in zip(params, grads, self.exp_avg[where], self.exp_avg_sq[where],
                                        self.max_exp_avg_sq[where]):
                decayed = p * ops.cast(1.0 - lr * group["weight_decay"], p.dtype)
                ops.assign(m, m * beta1 + g * (1.0 - beta1))
                ops.assign(v, v * beta2 + g * g * (1.0 - beta2))
                second = v
                if group["amsgrad"]:
                    ops.assign(vmax, ops.maximum(vmax, v))
                    second = vmax
                denom = ops.sqrt(second) / ops.cast(correction2, p.dtype) + group["eps"]
                ops.assign(p, decayed - m / denom * ops.cast(step_size, p.dtype))
        return True
