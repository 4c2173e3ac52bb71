"""Losses of MindSpore 2.2 beyond the C++ ones, composed from mindspore.ops, and a LossBase that
Python losses subclass (MindSpore's get_loss / get_axis and the 'reduction' check).

nn.LossBase becomes this Python class; the C++ losses (MSELoss, L1Loss, ...) still count as
LossBase instances and subclasses (isinstance / issubclass).
"""
import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

__all__ = ["LossBase", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "KLDivLoss", "CosineEmbeddingLoss", "SoftMarginLoss", "MarginRankingLoss", "DiceLoss",
           "RMSELoss", "MAELoss"]

_CppLossBase = _nn.LossBase
_REDUCTIONS = ("mean", "sum", "none")


class _LossBaseType(type(_nn.Cell)):
    """Also counts the C++ losses as LossBase instances and subclasses."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        return cls is LossBase and isinstance(obj, _CppLossBase)

    def __subclasscheck__(cls, sub):
        if type.__subclasscheck__(cls, sub):
            return True
        return cls is LossBase and isinstance(sub, type) and issubclass(sub, _CppLossBase)


def _check_reduction(who, reduction, allowed=_REDUCTIONS):
    if reduction is None:
        reduction = "none"
    if not isinstance(reduction, str) or reduction not in allowed:
        raise ValueError("For '%s', the 'reduction' must be in %s, but got %s."
                         % (who, list(allowed), reduction))
    return reduction


class LossBase(_nn.Cell, metaclass=_LossBaseType):
    """The base of losses: reduction is 'mean', 'sum' or 'none'; get_loss(x, weights) applies
    it."""

    def __init__(self, reduction="mean", dtype=mstype.float32):
        super().__init__()
        self.reduction = _check_reduction(type(self).__name__, reduction)
        self.average = self.reduction == "mean"
        self.reduce = self.reduction != "none"
        self.dtype = dtype

    def get_axis(self, x):
        """All the axes of x."""
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """weights * x, then averaged or summed over every axis as reduction says."""
        input_dtype = x.dtype
        if input_dtype not in (mstype.float32, mstype.float64):
            x = ops.cast(x, mstype.float32)
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = x * weights
        if self.reduce and self.average:
            x = ops.mean(x, self.get_axis(x))
        elif self.reduce:
            x = ops.sum(x, self.get_axis(x))
        return x

    def construct(self, logits, labels):
        raise NotImplementedError("For '%s', the construct method is not defined."
                                  % type(self).__name__)


def _check_float(who, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '%s', the type of '%s' must be float, but got %s."
                        % (who, name, type(value).__name__))
    return float(value)


def _check_same_shape(who, a, b, names=("logits", "labels")):
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError("For '%s', the shape of '%s' must be equal to the shape of '%s', but got "
                         "%s and %s." % (who, names[0], names[1], tuple(a.shape), tuple(b.shape)))


class SmoothL1Loss(LossBase):
    """0.5 * d^2 / beta where |d| < beta, |d| - 0.5 * beta otherwise (d = logits - labels)."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = _check_float("SmoothL1Loss", "beta", beta)
        if self.beta <= 0:
            raise ValueError("For 'SmoothL1Loss', the 'beta' must be greater than 0, but got %s."
                             % beta)

    def construct(self, logits, labels):
        _check_same_shape("SmoothL1Loss", logits, labels)
        diff = ops.abs(logits - labels)
        quadratic = ops.minimum(diff, self.beta)
        loss = 0.5 * quadratic * quadratic / self.beta + (diff - quadratic)
        return self.get_loss(loss)


class HuberLoss(LossBase):
    """0.5 * d^2 where |d| < delta, delta * (|d| - 0.5 * delta) otherwise."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = _check_float("HuberLoss", "delta", delta)
        if self.delta <= 0:
            raise ValueError("For 'HuberLoss', the 'delta' must be greater than 0, but got %s." % delta)

    def construct(self, logits, labels):
        # logits and labels broadcast against each other, as in MindSpore (reduction 'none' gives the
        # broadcast shape)
        diff = ops.abs(logits - labels)
        quadratic = ops.minimum(diff, self.delta)
        loss = 0.5 * quadratic * quadratic + self.delta * (diff - quadratic)
        return self.get_loss(loss)


class MAELoss(LossBase):
    """|logits - labels|, reduced."""

    def construct(self, logits, label):
        return self.get_loss(ops.abs(logits - label))


class RMSELoss(LossBase):
    """sqrt(mean((logits - labels)^2))."""

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        diff = logits - label
        return ops.sqrt(ops.mean(diff * diff))


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits (N, C, ...) against class indices or class probabilities, with
    per-class weights, ignore_index and label smoothing."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError("For 'CrossEntropyLoss', the type of 'weight' must be Tensor or None, "
                            "but got %s." % type(weight).__name__)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError("For 'CrossEntropyLoss', the type of 'ignore_index' must be int, but "
                            "got %s." % type(ignore_index).__name__)
        self.label_smoothing = _check_float("CrossEntropyLoss", "label_smoothing", label_smoothing)
        if not 0.0 <= self.label_smoothing <= 1.0:
            raise ValueError("For 'CrossEntropyLoss', the 'label_smoothing' must be in range [0, 1], "
                             "but got %s." % label_smoothing)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


def _class_last(x):
    """(N, C, d1, ...) -> (N * d1 * ..., C); (N, C) unchanged."""
    if x.ndim > 2:
        perm = (0,) + tuple(range(2, x.ndim)) + (1,)
        x = ops.transpose(x, perm)
    return ops.reshape(x, (-1, x.shape[-1]))


class NLLLoss(LossBase):
    """-weight[t] * logits[n, t] for each target t (logits are log-probabilities, class axis 1);
    targets equal to ignore_index count for nothing; 'mean' divides by the summed weights."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError("For 'NLLLoss', the type of 'weight' must be Tensor or None, but got %s."
                            % type(weight).__name__)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError("For 'NLLLoss', the type of 'ignore_index' must be int, but got %s."
                            % type(ignore_index).__name__)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        if logits.ndim < 1 or labels.ndim != max(logits.ndim - 1, 0):
            raise ValueError("For 'NLLLoss', the 'labels' must have one dimension less than "
                             "'logits', but got %s and %s." % (tuple(logits.shape), tuple(labels.shape)))
        out_shape = tuple(labels.shape)
        if logits.ndim == 1:
            logits = ops.expand_dims(logits, 0)
            labels = ops.reshape(labels, (1,))
        classes = logits.shape[1]
        flat = _class_last(logits)
        target = ops.reshape(labels, (-1,))
        keep = ops.cast(ops.not_equal(target, self.ignore_index), flat.dtype)
        safe = ops.where(ops.not_equal(target, self.ignore_index), target, ops.zeros_like(target))
        one_hot = ops.one_hot(safe, classes, 1.0, 0.0)
        if one_hot.dtype != flat.dtype:
            one_hot = ops.cast(one_hot, flat.dtype)
        picked = ops.sum(flat * one_hot, -1)
        if self.weight is not None:
            weight = ops.cast(self.weight, flat.dtype) if self.weight.dtype != flat.dtype else self.weight
            w = ops.sum(one_hot * weight, -1) * keep
        else:
            w = keep
        loss = -picked * w
        if self.reduction == "none":
            return ops.reshape(loss, out_shape)
        total = ops.sum(loss)
        if self.reduction == "sum":
            return total
        return total / ops.sum(w)


class BCELoss(LossBase):
    """-weight * (y * log(x) + (1 - y) * log(1 - x)) for probabilities x."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError("For 'BCELoss', the type of 'weight' must be Tensor or None, but got %s."
                            % type(weight).__name__)
        self.weight = weight

    def construct(self, logits, labels):
        _check_same_shape("BCELoss", logits, labels)
        eps = 1e-12
        loss = -(labels * ops.log(logits + eps) + (1.0 - labels) * ops.log(1.0 - logits + eps))
        if self.weight is not None:
            loss = loss * self.weight
        return self.get_loss(loss)


class KLDivLoss(LossBase):
    """labels * (log(labels) - logits) (logits are log-probabilities), 0 where labels == 0;
    reduction 'batchmean' divides the sum by the batch size."""

    def __init__(self, reduction="mean"):
        _check_reduction("KLDivLoss", reduction, ("mean", "sum", "none", "batchmean"))
        super().__init__("sum" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        positive = labels > 0
        safe = ops.where(positive, labels, ops.ones_like(labels))
        loss = ops.where(positive, labels * (ops.log(safe) - logits), ops.zeros_like(labels))
        if self.reduction == "none":
            return loss
        if self.reduction == "sum":
            return ops.sum(loss)
        if self.reduction == "batchmean":
            return ops.sum(loss) / (logits.shape[0] if logits.ndim else 1)
        return ops.mean(loss)


class CosineEmbeddingLoss(LossBase):
    """1 - cos(x1, x2) where labels == 1, max(0, cos(x1, x2) - margin) where labels == -1 (cosine
    along the last axis)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = _check_float("CosineEmbeddingLoss", "margin", margin)
        if not -1.0 <= self.margin <= 1.0:
            raise ValueError("For 'CosineEmbeddingLoss', the 'margin' must be in range [-1, 1], but "
                             "got %s." % margin)

    def construct(self, logits_x1, logits_x2, labels):
        _check_same_shape("CosineEmbeddingLoss", logits_x1, logits_x2, ("logits_x1", "logits_x2"))
        eps = 1e-12
        prod = ops.sum(logits_x1 * logits_x2, -1)
        mag = ops.sum(logits_x1 * logits_x1, -1) * ops.sum(logits_x2 * logits_x2, -1)
        cosine = prod / ops.sqrt(mag + eps)
        pos = 1.0 - cosine
        neg = ops.relu(cosine - self.margin)
        loss = ops.where(labels == 1, pos, ops.zeros_like(pos)) + \
            ops.where(labels == -1, neg, ops.zeros_like(neg))
        return self.get_loss(loss)


class SoftMarginLoss(LossBase):
    """log(1 + exp(-labels * logits)), averaged or summed."""

    def construct(self, logits, labels):
        _check_same_shape("SoftMarginLoss", logits, labels)
        return self.get_loss(ops.softplus(-labels * logits))


class MarginRankingLoss(LossBase):
    """max(0, -target * (input1 - input2) + margin)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = _check_float("MarginRankingLoss", "margin", margin)

    def construct(self, input1, input2, target):
        return self.get_loss(ops.relu(-target * (input1 - input2) + self.margin))


class DiceLoss(LossBase):
    """1 - 2 * sum(x * y) / (sum(x * x) + sum(y * y) + smooth)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = _check_float("DiceLoss", "smooth", smooth)
        if self.smooth <= 0:
            raise ValueError("For 'DiceLoss', the 'smooth' must be greater than 0, but got %s." % smooth)

    def construct(self, logits, label):
        _check_same_shape("DiceLoss", logits, label)
        intersection = ops.sum(logits * label)
        union = ops.sum(logits * logits) + ops.sum(label * label)
        return 1.0 - (2.0 * intersection) / (union + self.smooth)


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
