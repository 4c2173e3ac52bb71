"""More losses of MindSpore 2.2 composed from mindspore.ops: MultiMarginLoss, TripletMarginLoss,
PoissonNLLLoss, GaussianNLLLoss and FocalLoss (all LossBase subclasses, reduced by get_loss)."""
import math

import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.nn._losses import LossBase, _check_float
from mindspore.nn._value_checks import known_values

__all__ = ["MultiMarginLoss", "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss", "FocalLoss"]


def _check_int(who, name, value, allowed=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For '%s', the type of '%s' must be int, but got %s." % (who, name, type(value).__name__))
    if allowed is not None and value not in allowed:
        raise ValueError("For '%s', the '%s' must be one of %s, but got %d." % (who, name, list(allowed), value))
    return value


def _one_hot(labels, classes, dtype):
    return ops.one_hot(ops.cast(labels, mstype.int32), classes, Tensor(1.0, dtype), Tensor(0.0, dtype))


class MultiMarginLoss(LossBase):
    """loss_n = sum over j != y_n of w[y_n] * max(0, margin - x[y_n] + x[j])^p / C."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        self.p = _check_int("MultiMarginLoss", "p", p, (1, 2))
        self.margin = _check_float("MultiMarginLoss", "margin", margin)
        self.weight = weight

    def construct(self, x, target, weight=None):
        weight = self.weight if weight is None else weight
        if x.ndim != 2 or target.ndim != 1 or target.shape[0] != x.shape[0]:
            raise ValueError("For 'MultiMarginLoss', 'x' must be 2-D (N, C) and 'target' 1-D (N,), but got %s and %s."
                             % (tuple(x.shape), tuple(target.shape)))
        classes = x.shape[1]
        hot = _one_hot(target, classes, x.dtype)
        picked = ops.sum(x * hot, 1, keepdim=True)
        margins = ops.relu(self.margin - picked + x) * (1.0 - hot)
        if self.p == 2:
            margins = margins * margins
        if weight is not None:
            margins = margins * ops.expand_dims(ops.gather(weight, ops.cast(target, mstype.int32), 0), 1)
        return self.get_loss(ops.sum(margins, 1) / classes)


class TripletMarginLoss(LossBase):
    """max(d(a, p) - d(a, n) + margin, 0) with d(u, v) = ||u - v + eps||_p over axis 1 (swap: d(a, n)
    becomes min(d(a, n), d(p, n)))."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        self.p = _check_int("TripletMarginLoss", "p", p)
        if not isinstance(swap, bool):
            raise TypeError("For 'TripletMarginLoss', the 'swap' must be a bool, but got %s." % type(swap).__name__)
        self.swap = swap
        self.eps = _check_float("TripletMarginLoss", "eps", eps)

    def _distance(self, u, v):
        d = ops.abs(u - v + self.eps)
        if self.p == 1:
            return ops.sum(d, 1)
        return ops.pow(ops.sum(ops.pow(d, float(self.p)), 1), 1.0 / self.p)

    def construct(self, x, positive, negative, margin=1.0):
        if not x.ndim == positive.ndim == negative.ndim or x.ndim < 2:
            raise ValueError("For 'TripletMarginLoss', 'x', 'positive' and 'negative' must have the same rank >= 2, "
                             "but got %d, %d and %d." % (x.ndim, positive.ndim, negative.ndim))
        d_pos, d_neg = self._distance(x, positive), self._distance(x, negative)
        if self.swap:
            d_neg = ops.minimum(d_neg, self._distance(positive, negative))
        margin = float(margin.asnumpy()) if isinstance(margin, Tensor) else float(margin)
        return self.get_loss(ops.relu(d_pos - d_neg + margin))


class PoissonNLLLoss(LossBase):
    """exp(x) - target * x (log_input) or x - target * log(x + eps); full adds Stirling's
    target * log(target) - target + 0.5 * log(2 * pi * target) where target > 1."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        for name, value in (("log_input", log_input), ("full", full)):
            if not isinstance(value, bool):
                raise TypeError("For 'PoissonNLLLoss', the '%s' must be a bool, but got %s."
                                % (name, type(value).__name__))
        self.log_input, self.full = log_input, full
        self.eps = _check_float("PoissonNLLLoss", "eps", eps)
        if not self.eps > 0:
            raise ValueError("For 'PoissonNLLLoss', the 'eps' must be greater than 0, but got %s." % eps)

    def construct(self, input, target):
        target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = ops.exp(input) - target * input
        else:
            loss = input - target * ops.log(input + self.eps)
        if self.full:
            big = target > 1
            safe = ops.select(big, target, ops.ones_like(target))
            stirling = safe * ops.log(safe) - safe + 0.5 * ops.log(2 * math.pi * safe)
            loss = loss + ops.select(big, stirling, ops.zeros_like(stirling))
        return self.get_loss(loss)


class GaussianNLLLoss(LossBase):
    """0.5 * (log(max(var, eps)) + (logits - labels)^2 / max(var, eps)), plus 0.5 * log(2 * pi) with
    full; var may lack the last axis of logits or have it of size 1."""

    def __init__(self, *, full=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        if not isinstance(full, bool):
            raise TypeError("For 'GaussianNLLLoss', the 'full' must be a bool, but got %s." % type(full).__name__)
        self.full = full
        self.eps = _check_float("GaussianNLLLoss", "eps", eps)
        if not self.eps > 0:
            raise ValueError("For 'GaussianNLLLoss', the 'eps' must be greater than 0, but got %s." % eps)

    def construct(self, logits, labels, var):
        if var.ndim == logits.ndim - 1:
            var = ops.expand_dims(var, -1)
        if tuple(var.shape) != tuple(logits.shape) and not (var.ndim == logits.ndim and var.shape[-1] == 1 and
                                                           tuple(var.shape[:-1]) == tuple(logits.shape[:-1])):
            raise ValueError("For 'GaussianNLLLoss', the shape of 'var' must match 'logits' %s, but got %s."
                             % (tuple(logits.shape), tuple(var.shape)))
        values = known_values(var)  # None while a graph compiles: the check then has no values
        if values is not None and bool(np.any(values < 0)):
            raise ValueError("For 'GaussianNLLLoss', 'var' must be non-negative.")
        # MindSpore clamps var without letting the clamp carry a gradient.
        var = var + ops.stop_gradient(ops.maximum(var, self.eps) - var)
        loss = 0.5 * (ops.log(var) + (logits - labels) ** 2 / var)
        if self.full:
            loss = loss + 0.5 * math.log(2 * math.pi)
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """-(1 - p)^gamma * log(p) * labels summed over the class axis (1), p = softmax over it; labels are
    one-hot / soft targets shaped like logits, or class indices with a class axis of size 1; weight
    (one per class) scales each class's term."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        self.gamma = _check_float("FocalLoss", "gamma", gamma)
        if weight is not None:
            if not isinstance(weight, Tensor) or weight.ndim != 1:
                raise TypeError("For 'FocalLoss', the 'weight' must be a 1-D Tensor, but got %r." % (weight,))
        self.weight = weight

    def construct(self, logits, labels):
        if logits.ndim != labels.ndim or logits.ndim < 2:
            raise ValueError("For 'FocalLoss', 'logits' and 'labels' must have the same rank >= 2, but got %d and %d."
                             % (logits.ndim, labels.ndim))
        classes = logits.shape[1]
        if labels.shape[1] not in (1, classes):
            raise ValueError("For 'FocalLoss', the channel of 'labels' must be 1 or %d, but got %d."
                             % (classes, labels.shape[1]))
        if labels.dtype not in (mstype.int32, mstype.int64) and labels.shape[1] == 1 and classes != 1:
            raise TypeError("For 'FocalLoss', class-index labels must be int32 or int64, but got %s." % labels.dtype)
        batch = logits.shape[0]
        logits = ops.reshape(logits, (batch, classes, -1))
        if labels.shape[1] == 1 and classes != 1:
            hot = _one_hot(ops.reshape(labels, (batch, -1)), classes, logits.dtype)
            labels = ops.transpose(hot, (0, 2, 1))
        else:
            labels = ops.cast(ops.reshape(labels, (batch, classes, -1)), logits.dtype)
        log_p = ops.log_softmax(logits, 1)
        loss = -ops.pow(1.0 - ops.exp(log_p), self.gamma) * log_p * labels
        if self.weight is not None:
            loss = loss * ops.reshape(ops.cast(self.weight, logits.dtype), (1, classes, 1))
        return self.get_loss(ops.sum(loss, 1))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
