"""mindspore.nn.optim.asgd: ASGD (averaged SGD) as MindSpore 2.2 computes it."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import Parameter, Tensor, ops
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["ASGD"]


def _float(value, name):
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError("For 'ASGD', the type of '%s' should be float, but got type '%s'." % (name, type(value).__name__))
    return value


class ASGD(Optimizer):
    """step t counts updates; eta starts at lr. param = param * (1 - lambd * eta) - eta * grad;
    ax = param when mu is 1, else ax += (param - ax) * mu; then eta = lr / (1 + lambd * lr * t) ** alpha
    and mu = 1 / max(1, t - t0)."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.lambd, self.alpha, self.t0 = _float(lambd, "lambd"), _float(alpha, "alpha"), _float(t0, "t0")
        self.eta = self._state("eta", dtype=_ms.float32)
        self.mu = self._state("mu", 1.0, dtype=_ms.float32)
        self.ax = self._state("ax", dtype=_ms.float32)
        self.step = Parameter(Tensor(0.0, _ms.float32), name="step", requires_grad=False)

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        ops.assign_add(self.step, Tensor(1.0, _ms.float32))
        first = float(self.step.asnumpy()) == 1.0
        for p, g, mu, eta, ax, lr in zip(self._parameters, gradients, self.mu, self.eta, self.ax, lrs):
            lr = ops.cast(lr, _ms.float32)
            if first:
                ops.assign(eta, ops.fill(_ms.float32, eta.shape, 1.0) * lr)
            p32 = ops.cast(p, _ms.float32)
            p32 = p32 * (1.0 - self.lambd * eta) - eta * ops.cast(g, _ms.float32)
            ops.assign(p, ops.cast(p32, p.dtype))
            ops.assign(ax, ops.select(mu != 1.0, ax + (p32 - ax) * mu, p32))
            ops.assign(eta, ops.fill(_ms.float32, eta.shape, 1.0)
                       * (lr / ops.pow(1.0 + self.lambd * lr * self.step, self.alpha)))
            ops.assign(mu, ops.fill(_ms.float32, mu.shape, 1.0) / ops.maximum(self.step - self.t0, 1.0))
        return True


_nn.ASGD = ASGD
