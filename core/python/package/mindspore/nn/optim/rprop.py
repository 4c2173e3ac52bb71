"""mindspore.nn.optim.rprop: Rprop (resilient backpropagation) as MindSpore 2.2 computes it."""
import mindspore as _ms
import mindspore.nn as _nn
from mindspore import ops
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["Rprop"]


def _pair(value, name):
    """A tuple of two numbers, checked in MindSpore's order: its type, then its length."""
    if not isinstance(value, tuple):
        raise TypeError("For Rprop, %s must be a tuple, but got %s." % (name, type(value)))
    if len(value) != 2:
        raise ValueError("For Rprop, %s must be a tuple with the size of 2, but got %d." % (name, len(value)))
    return value


def _float(value, name):
    if not isinstance(value, float):
        raise TypeError("For 'Rprop', the type of '%s' should be 'float', but got '%s' with type '%s'."
                        % (name, value, type(value).__name__))
    return value


class Rprop(Optimizer):
    """The sign of grad * previous grad scales each element's step size (etaplus when it is
    positive, etaminus when negative, clipped to step_sizes; the first step size is lr); where the
    sign flipped the gradient counts as 0; param -= sign(grad) * step_size."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        etas = _pair(etas, "etas")
        step_sizes = _pair(step_sizes, "step_sizes")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError("For Rprop, maximal step size should not be less than minimal step size, but got "
                             "%s > %s." % (step_sizes[0], step_sizes[1]))
        if not 0.0 < _float(etas[0], "etaminus") < 1.0:
            raise ValueError("For 'Rprop', the 'etaminus' must be in range of (0.0, 1.0), but got %s." % etas[0])
        if _float(etas[1], "etaplus") <= 1.0:
            raise ValueError("For Rprop, etaplus must be greater than 1.0, but got etaplus %s." % etas[1])
        self.etaminus, self.etaplus = etas
        self.step_size_min = _float(step_sizes[0], "min_step_sizes")
        self.step_size_max = _float(step_sizes[1], "max_step_sizes")
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
