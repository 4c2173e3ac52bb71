"""mindspore.nn.optim.adafactor: AdaFactor (Shazeer and Stern, 2018) as MindSpore 2.2 computes it.

Per parameter p with gradient g, at step t (counted from 1):
    rho   = min(1e-6 * t if warmup_init else 1e-2, 1 / sqrt(t)) when relative_step, else the learning rate
    alpha = max(eps[1], rms(p)) * rho when scale_parameter, else rho
    b2    = 1 - t^(-decay_rate)
    u     = g^2 + eps[0]
    p of rank >= 2 (factored): R = b2 R + (1 - b2) mean(u, -1), C = b2 C + (1 - b2) mean(u, -2),
                               u = g / sqrt(R / mean(R, -1)) / sqrt(C)  (rows and columns broadcast)
    otherwise:                 V = b2 V + (1 - b2) u, u = g / sqrt(V)
    u = alpha * u / max(1, rms(u) / clip_threshold)
    with beta1 > 0:            m = beta1 m + (1 - beta1) u, u = m
    p = p - weight_decay * alpha * p - u
MindSpore applies the gradients as they come (no loss-scale division, no gradient centralization)
and decays the weights itself, decoupled, as above.
"""
import math

import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["AdaFactor"]


def _float_in(name, value, low, high, low_open=False, high_open=False):
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError("For 'AdaFactor', the type of '%s' must be float, but got %s." % (name, type(value).__name__))
    if (value < low or (low_open and value == low)) or (value > high or (high_open and value == high)):
        raise ValueError("For 'AdaFactor', the '%s' must be in %s%s, %s%s, but got %s."
                         % (name, "(" if low_open else "[", low, high, ")" if high_open else "]", value))
    return value


def _rms(x):
    return ops.sqrt(ops.mean(ops.square(x)))


class AdaFactor(Optimizer):
    """See the module docstring for the update."""

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8,
                 beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False,
                 compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("For 'AdaFactor', a manual 'learning_rate' cannot be combined with relative_step=True, "
                             "but got learning_rate %s." % (learning_rate,))
        if warmup_init and not relative_step:
            raise ValueError("For 'AdaFactor', warmup_init=True requires relative_step=True.")
        if learning_rate is None and not relative_step:
            raise ValueError("For 'AdaFactor', 'learning_rate' cannot be None when relative_step is False.")
        super().__init__(0.0 if learning_rate is None else learning_rate, params, weight_decay, loss_scale)
        if not isinstance(eps, (tuple, list)) or len(eps) != 2:
            raise ValueError("For 'AdaFactor', 'eps' must have 2 values (eps1, eps2), but got %s." % (eps,))
        self.eps = tuple(_float_in("eps%d" % i, e, 0.0, math.inf) for i, e in enumerate(eps))
        self.clip_threshold = _float_in("clip_threshold", clip_threshold, 0.0, math.inf)
        self.decay_rate = _float_in("decay_rate", decay_rate, 0.0, 1.0, True, True)
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)) or beta1 < 0:
            raise ValueError("For 'AdaFactor', the 'beta1' must be a non-negative float, but got %s." % (beta1,))
        for name, flag in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                           ("warmup_init", warmup_init), ("compression", compression)):
            if not isinstance(flag, bool):
                raise TypeError("For 'AdaFactor', the type of '%s' must be bool, but got %s."
                                % (name, type(flag).__name__))
        self.beta1 = float(beta1)
        self.use_first_moment = self.beta1 > 0
        self.scale_parameter, self.relative_step, self.warmup_init = scale_parameter, relative_step, warmup_init
        self.compression = compression
        # MindSpore recomputes the rate only from a number (or the relative step); a Tensor or
        # schedule rate is used as given.
        self.scale_lr = learning_rate is None or isinstance(learning_rate, (int, float))
        self.decay = float(weight_decay) if not isinstance(weight_decay, _nn.Cell) else 0.0
        moment_dtype = _ms.float16 if compression else None
        self.exp_avg = self._state("exp_avg", dtype=moment_dtype) if self.use_first_moment else None
        self.exp_avg_sq_row, self.exp_avg_sq_col, self.exp_avg_sq = [], [], []
        for p in self._parameters:
            factored = len(p.shape) > 1
            shapes = ((tuple(p.shape[:-1]), tuple(p.shape[:-2]) + tuple(p.shape[-1:]), (1,)) if factored
                      else ((1,), (1,), tuple(p.shape)))
            for store, prefix, shape in zip((self.exp_avg_sq_row, self.exp_avg_sq_col, self.exp_avg_sq),
                                            ("exp_avg_sq_row_", "exp_avg_sq_col_", "exp_avg_sq_"), shapes):
                state = Parameter(ops.zeros(shape, p.dtype), name=prefix + p.name, requires_grad=False)
                self.insert_param_to_cell((prefix + p.name).replace(".", "_"), state)
                state.name = prefix + p.name
                store.append(state)
        self.step = Parameter(Tensor([0.0], _ms.float32), name="afactor_step", requires_grad=False)

    def _alpha(self, p32, lr, t):
        if not self.scale_lr:
            return ops.cast(lr, _ms.float32)
        rho = ops.cast(lr, _ms.float32)
        if self.relative_step:
            low = 1e-6 * t if self.warmup_init else 1e-2
            rho = min(low, 1.0 / math.sqrt(t))
        if self.scale_parameter:
            return ops.maximum(_rms(p32), Tensor(self.eps[1], _ms.float32)) * rho
        return rho * ops.ones((), _ms.float32)

    def construct(self, gradients):
        gradients = tuple(gradients)
        lrs = self._per_param(self.get_lr())
        ops.assign_add(self.step, Tensor([1.0], _ms.float32))
        t = float(self.step.asnumpy()[0])
        b2 = 1.0 - t ** (-self.decay_rate)
        moments = self.exp_avg if self.use_first_moment else (None,) * len(gradients)
        for i, (p, g, lr, m) in enumerate(zip(self._parameters, gradients, lrs, moments)):
            g32, p32 = ops.cast(g, _ms.float32), ops.cast(p, _ms.float32)
            alpha = self._alpha(p32, lr, t)
            u = ops.square(g32) + self.eps[0]
            if len(p.shape) > 1:
                row, col = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
                r = b2 * ops.cast(row, _ms.float32) + (1.0 - b2) * ops.mean(u, -1)
                c = b2 * ops.cast(col, _ms.float32) + (1.0 - b2) * ops.mean(u, -2)
                ops.assign(row, ops.cast(r, row.dtype))
                ops.assign(col, ops.cast(c, col.dtype))
                r_factor = ops.expand_dims(ops.rsqrt(r / ops.mean(r, -1, keep_dims=True)), -1)
                update = r_factor * ops.expand_dims(ops.rsqrt(c), -2) * g32
            else:
                sq = self.exp_avg_sq[i]
                v = b2 * ops.cast(sq, _ms.float32) + (1.0 - b2) * u
                ops.assign(sq, ops.cast(v, sq.dtype))
                update = ops.rsqrt(v) * g32
            update = update / ops.maximum(_rms(update) / self.clip_threshold, Tensor(1.0, _ms.float32)) * alpha
            if m is not None:
                update = self.beta1 * ops.cast(m, _ms.float32) + (1.0 - self.beta1) * update
                ops.assign(m, ops.cast(update, m.dtype))
            if self.decay:
                p32 = p32 - self.decay * alpha * p32
            ops.assign(p, ops.cast(p32 - update, p.dtype))
        return True


_nn.AdaFactor = AdaFactor
