"""mindspore.nn.optim.adam: Adam (MindSpore's kernel: bias correction folded into the step size,
eps added to sqrt(v); Nesterov; AMSGrad) and AdamWeightDecay (decoupled decay, no bias
correction). nn.Adam is the core (C++) optimizer; given parameter groups, a dynamic learning
rate, a loss scale or use_amsgrad it builds this Python one."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer, route_to_python
from mindspore.train._checks import check_bool, check_float_range_open

__all__ = ["Adam", "AdamWeightDecay"]

_CoreAdam = _nn.Adam


def check_betas_eps(who, beta1, beta2, eps):
    # MindSpore checks the three are floats (an int is refused) before their ranges.
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError("For '%s', the type of '%s' should be 'float', but got '%s' with type '%s'."
                            % (who, name, value, type(value).__name__))
    check_float_range_open(beta1, 0.0, 1.0, "beta1", who)
    check_float_range_open(beta2, 0.0, 1.0, "beta2", who)
    if isinstance(eps, bool) or not isinstance(eps, float):
        raise TypeError("For '%s', the 'eps' must be float, but got '%s'." % (who, type(eps).__name__))
    if not eps > 0:
        raise ValueError("For '%s', the 'eps' must be float and must > 0, but got '%s' with type 'float'." % (who, eps))


def moments_update(m, v, g, beta1, beta2):
    """m += (g - m) * (1 - beta1); v += (g * g - v) * (1 - beta2), in place."""
    ops.assign(m, m + (g - m) * (1.0 - beta1))
    ops.assign(v, v + (g * g - v) * (1.0 - beta2))


class Adam(Optimizer):
    """m, v the moments; step = lr * sqrt(1 - beta2^t) / (1 - beta1^t);
    param -= step * m / (sqrt(v) + eps) (m * beta1 + (1 - beta1) * g with use_nesterov; the running
    maximum of v with use_amsgrad)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = self.cls_name
        check_betas_eps(who, beta1, beta2, eps)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad)):
            check_bool(value, name, who)
        use_lazy, use_offload = kwargs.pop("use_lazy", False), kwargs.pop("use_offload", False)
        if kwargs:
            raise TypeError("For '%s', got an unexpected keyword argument '%s'." % (who, next(iter(kwargs))))
        if use_amsgrad and (use_nesterov or use_lazy or use_offload):
            raise ValueError("For 'Adam', when 'use_amsgrad' is True, 'use_nesterov', 'use_lazy' and 'use_offload' "
                             "must be False.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.use_nesterov, self.use_amsgrad = use_nesterov, use_amsgrad
        self.beta1_power = Parameter(Tensor(1.0, _ms.float32), name="beta1_power", requires_grad=False)
        self.beta2_power = Parameter(Tensor(1.0, _ms.float32), name="beta2_power", requires_grad=False)
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        if use_amsgrad:
            self.vhat = self._state("vhat")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        ops.assign(self.beta1_power, self.beta1_power * self.beta1)
        ops.assign(self.beta2_power, self.beta2_power * self.beta2)
        correction = ops.sqrt(1.0 - self.beta2_power) / (1.0 - self.beta1_power)
        vhats = self.vhat if self.use_amsgrad else (None,) * self.param_length
        for p, g, m, v, vhat, lr in zip(self._parameters, gradients, self.moment1, self.moment2, vhats, lrs):
            moments_update(m, v, g, self.beta1, self.beta2)
            if vhat is not None:
                ops.assign(vhat, ops.maximum(vhat, v))
                v = vhat
            direction = m * self.beta1 + g * (1.0 - self.beta1) if self.use_nesterov else m
            step = ops.cast(lr * correction, p.dtype)
            ops.assign(p, p - step * direction / (ops.sqrt(v) + self.eps))
        return True


class AdamWeightDecay(Optimizer):
    """m, v the moments (no bias correction); update = m / (sqrt(v) + eps) + weight_decay * param
    (parameters without 'beta' / 'gamma' in their names, or the group's decay); param -= lr * update."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        check_betas_eps("AdamWeightDecay", beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._state("adam_m", dtype=_ms.float32)
        self.moments2 = self._state("adam_v", dtype=_ms.float32)

    def construct(self, gradients):
        gradients = self.scale_grad(self.gradients_centralization(self.flatten_gradients(gradients)))
        lrs = self._per_param(self.get_lr())
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        for p, g, m, v, lr, wd, flag in zip(self._parameters, gradients, self.moments1, self.moments2, lrs, wds,
                                            self.decay_flags):
            moments_update(m, v, ops.cast(g, _ms.float32), self.beta1, self.beta2)
            update = m / (ops.sqrt(v) + self.eps)
            p32 = ops.cast(p, _ms.float32)
            if flag and wd > 0:
                update = update + wd * p32
            ops.assign(p, ops.cast(p32 - lr * update, p.dtype))
        return True


route_to_python(_CoreAdam, Adam, lambda a: a["use_amsgrad"] is True)
_nn.AdamWeightDecay = AdamWeightDecay
