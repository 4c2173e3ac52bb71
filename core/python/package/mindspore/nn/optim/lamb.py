"""mindspore.nn.optim.lamb: Lamb (layer-wise adaptive moments) as MindSpore 2.2 computes it on CPU/GPU."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.adam import check_betas_eps
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["Lamb"]


def _norm(x):
    return ops.sqrt(ops.reduce_sum(x * x))


class Lamb(Optimizer):
    """m, v the moments, t = global_step + 1; r = m / (1 - beta1^t) / (sqrt(v / (1 - beta2^t)) + eps),
    plus weight_decay * param for parameters that decay; the trust ratio is ||param|| / ||r'|| (r' with
    rsqrt(v_hat + eps) and the decay term), 1 when either norm of param or grad is 0, clipped to
    [0, 10]; param -= lr * ratio * r. Weight decay is decoupled (not added to the gradient)."""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        check_betas_eps(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.params = self._parameters
        self.moments1 = self._state("lamb_m", dtype=_ms.float32)
        self.moments2 = self._state("lamb_v", dtype=_ms.float32)

    def construct(self, gradients):
        gradients = self.gradients_centralization(self.flatten_gradients(gradients))
        lrs = self._per_param(self.get_lr())
        wds = self.get_weight_decay()
        wds = wds if self.is_group else (wds,) * self.param_length
        # A dynamic rate has advanced global_step in get_lr already; MindSpore then counts from 2.
        t = ops.cast(self.global_step, _ms.float32).reshape(()) + 1.0
        for p, g, m, v, lr, wd, flag in zip(self._parameters, gradients, self.moments1, self.moments2, lrs, wds,
                                            self.decay_flags):
            p32, g32 = ops.cast(p, _ms.float32), ops.cast(g, _ms.float32)
            ops.assign(m, m * self.beta1 + g32 * (1.0 - self.beta1))
            ops.assign(v, v * self.beta2 + g32 * g32 * (1.0 - self.beta2))
            m_hat = m / (1.0 - ops.pow(ops.full_like(t, self.beta1), t))
            v_hat = v / (1.0 - ops.pow(ops.full_like(t, self.beta2), t))
            w_norm, g_norm = _norm(p32), _norm(g32)
            update_norm = _norm(m_hat * ops.rsqrt(v_hat + self.eps) + wd * p32)
            ones = ops.ones_like(w_norm)
            ratio = ops.select(w_norm > 0, ops.select(g_norm > 0, w_norm / update_norm, ones), ones)
            ratio = ops.clip_by_value(ratio, 0.0, 10.0)
            update = m_hat / (ops.sqrt(v_hat) + self.eps)
            if flag:
                update = update + wd * p32
            ops.assign(p, ops.cast(p32 - ratio * ops.cast(lr, _ms.float32) * update, p.dtype))
        if not self._advances_step():
            ops.assign_add(self.global_step, ops.ones_like(self.global_step))
        return True


_nn.Lamb = Lamb
