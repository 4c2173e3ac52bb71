"""mindspore.nn.optim.rprop: Rprop (resilient backpropagation) as MindSpore 2.2 computes it."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["Rprop"]


def _pair(value, name):
    if not isinstance(value, tuple) or len(value) != 2 or \
            not all(isinstance(v, float) and not isinstance(v, bool) for v in value):
        raise TypeError("For 'Rprop', the '%s' must be a tuple of two floats, but got %r." % (name, value))
    return value


class Rprop(Optimizer):
    """The sign of grad * previous grad scales each element's step size (etaplus when it is
    positive, etaminus when negative, clipped to step_sizes; the first step size is lr); where the
    sign flipped the gradient counts as 0; param -= sign(grad) * step_size."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.etaminus, self.etaplus = _pair(etas, "etas")
        self.step_size_min, self.step_size_max = _pair(step_sizes, "step_sizes")
        if not 0.0 < self.etaminus < 1.0 < self.etaplus:
            raise ValueError("For 'Rprop', etas must be a tuple with two float, 0 < etaminus < 1 < etaplus, but got "
                             "%r." % (etas,))
        if self.step_size_min > self.step_size_max:
            raise ValueError("For 'Rprop', the minimal step size must not exceed the maximal one, but got %r."
                             % (step_sizes,))
        self.prev = self._state("prev")
        self.step_size = self._state("step_size")

    def construct(self, gradients):
        gradients = self._prepared(gradients)
        lrs = self._per_param(self.get_lr())
        first = int(self._step_count().asnumpy()[0]) == 1
        for p, g, prev, step_size, lr in zip(self._parameters, gradients, self.prev, self.step_size, lrs):
            g32 = ops.cast(g, _ms.float32)
            size = ops.ones_like(ops.cast(step_size, _ms.float32)) * ops.cast(lr, _ms.float32) if first \
                else ops.cast(step_size, _ms.float32)
            sign = ops.sign(g32 * ops.cast(prev, _ms.float32))
            factor = ops.select(sign > 0, ops.full_like(sign, self.etaplus),
                                ops.select(sign < 0, ops.full_like(sign, self.etaminus), ops.ones_like(sign)))
            size = ops.clip_by_value(size * factor, self.step_size_min, self.step_size_max)
            g32 = ops.select(sign < 0, ops.zeros_like(g32), g32)
            ops.assign(p, ops.cast(ops.cast(p, _ms.float32) - ops.sign(g32) * size, p.dtype))
            ops.assign(prev, ops.cast(g32, prev.dtype))
            ops.assign(step_size, ops.cast(size, step_size.dtype))
        return True


_nn.Rprop = Rprop
