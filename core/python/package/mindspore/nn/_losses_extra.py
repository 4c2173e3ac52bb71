"""Losses of MindSpore 2.2 the package lacked, composed from mindspore.ops: HingeEmbeddingLoss,
MultiLabelSoftMarginLoss, MultilabelMarginLoss, MultiClassDiceLoss and CTCLoss (LossBase
subclasses) and SampledSoftmaxLoss. CTCLoss runs the CTC forward (alpha) recursion in log space over time, so its
gradient is the recursion's own."""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.nn._losses import DiceLoss, LossBase, _check_float, _check_same_shape
from mindspore.nn._value_checks import deciding_values, known_values

__all__ = ["HingeEmbeddingLoss", "MultiLabelSoftMarginLoss", "MultilabelMarginLoss", "MultiLabelMarginLoss",
           "MultiClassDiceLoss",
           "CTCLoss", "SampledSoftmaxLoss"]


class HingeEmbeddingLoss(LossBase):
    """x where labels == 1, max(0, margin - x) where labels == -1 (labels broadcast against x)."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = _check_float("HingeEmbeddingLoss", "margin", margin)

    def construct(self, logits, labels):
        labels = ops.cast(labels, logits.dtype)
        positive = ops.cast(labels > 0, logits.dtype) * logits
        negative = ops.cast(labels < 0, logits.dtype) * ops.relu(self.margin - logits)
        return self.get_loss(positive + negative)


class MultiLabelSoftMarginLoss(LossBase):
    """-mean over the C classes of w_c * (y log sigmoid(x) + (1 - y) log sigmoid(-x)) for (N, C)
    input, reduced over N."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        if x.ndim != 2:
            raise ValueError("For 'MultiLabelSoftMarginLoss', the 'x' must be 2-D (N, C), but got shape %s."
                             % (tuple(x.shape),))
        _check_same_shape("MultiLabelSoftMarginLoss", x, target, ("x", "target"))
        weight = None if self.weight is None else ops.cast(self.weight, x.dtype)
        return self.get_loss(ops.multilabel_soft_margin_loss(x, ops.cast(target, x.dtype), weight, "none"))


class MultilabelMarginLoss(LossBase):
    """For each sample, the sum over its target classes j (target's entries up to the first -1)
    and the other classes i of max(0, 1 - (x[j] - x[i])), divided by C; (C,) or (N, C) input."""

    def construct(self, x, target):
        if x.ndim not in (1, 2):
            raise ValueError("For 'MultilabelMarginLoss', the 'x' must be 1-D or 2-D, but got %d-D." % x.ndim)
        _check_same_shape("MultilabelMarginLoss", x, target, ("x", "target"))
        if target.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For 'MultilabelMarginLoss', the dtype of 'target' must be int32, but got %s."
                            % target.dtype)
        one = x.ndim == 1
        xs = ops.expand_dims(x, 0) if one else x
        target = ops.reshape(ops.cast(target, mstype.int32), xs.shape)
        c = xs.shape[1]
        values = known_values(target)
        if values is not None:
            bad = (values >= c) & (np.cumprod(values >= 0, 1) > 0)
            if bad.any():
                raise ValueError("For 'MultilabelMarginLoss', the 'target' values must be in [-1, %d), but got %d."
                                 % (c, values[bad].max()))
        # A sample's target classes are its entries before the first negative one.
        valid = ops.cumprod(ops.cast(target >= 0, xs.dtype), 1)
        hot = ops.one_hot(ops.clip(target, 0, c - 1), c, Tensor(1.0, xs.dtype), Tensor(0.0, xs.dtype))
        is_target = ops.sum(hot * ops.expand_dims(valid, -1), 1) > 0                 # (N, C)
        # pair[n, j, i]: j a target class, i not.
        pair = ops.cast(ops.logical_and(ops.expand_dims(is_target, 2), ops.logical_not(ops.expand_dims(is_target, 1))),
                        xs.dtype)
        margins = ops.relu(1.0 - (ops.expand_dims(xs, 2) - ops.expand_dims(xs, 1))) * pair
        loss = ops.sum(margins, (1, 2)) / c
        return self.get_loss(ops.squeeze(loss, 0) if one else loss)


# MindSpore spells it MultilabelMarginLoss; the capitalised spelling stays for scripts written to
# the earlier package.
MultiLabelMarginLoss = MultilabelMarginLoss


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of DiceLoss of each class's scores and labels, after the
    activation (softmax over the last axis by default), class i skipped when ignore_indiex == i
    and weighted by weights[i]."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        from mindspore.nn._layers_activation import get_activation
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError("For 'MultiClassDiceLoss', the type of 'weights' should be 'Tensor', but got '%s' with "
                            "type '%s'." % (weights, type(weights).__name__))
        if weights is not None and weights.ndim != 2:
            raise ValueError("For 'MultiClassDiceLoss', the dimension of 'weights' should be 2, but got %d."
                             % weights.ndim)
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError("For 'MultiClassDiceLoss', the type of 'ignore_indiex' should be 'int', but got '%s' "
                            "with type '%s'." % (ignore_indiex, type(ignore_indiex).__name__))
        names = ['softmax', 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid']  # the ones MindSpore takes
        if isinstance(activation, str) and activation not in names:
            raise ValueError("For 'MultiClassDiceLoss', the 'activation' must be in %s, but got %s." % (names, activation))
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, _nn.Cell):
            raise TypeError("For 'MultiClassDiceLoss', the 'activation' must be str or Cell, but got %s."
                            % type(self.activation))
        self.binarydiceloss = DiceLoss(smooth=1e-5)

    def construct(self, logits, label):
        _check_same_shape("MultiClassDiceLoss", logits, label)
        if logits.ndim < 2:
            raise ValueError("For 'MultiClassDiceLoss', the dimension of 'logits' must be at least 2, but got %d."
                             % logits.ndim)
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ValueError("For 'MultiClassDiceLoss', the first dimension of 'weights' (%d) must equal the number "
                             "of classes (%d)." % (self.weights.shape[0], classes))
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0.0
        for i in range(classes):
            if i == self.ignore_indiex:
                continue
            loss = self.binarydiceloss(logits[:, i], label[:, i])
            if self.weights is not None:
                loss = loss * self.weights[i]
            total = total + loss
        return total / classes


_NEG = -1e30  # log(0) kept finite, so the recursion's max-shifted sums and gradients stay defined


def _logsumexp(parts):
    stacked = ops.stack(parts, 0)
    top = ops.amax(stacked, 0)
    return top + ops.log(ops.sum(ops.exp(stacked - top), 0))


def _check_ctc_values(targets, input_lengths, target_lengths, steps, classes, blank):
    """MindSpore's checks of the lengths and labels, when their values are known."""
    lin, ltg, t = (known_values(v) for v in (input_lengths, target_lengths, targets))
    if lin is None or ltg is None or t is None:
        return
    if (lin > steps).any() or (lin < 0).any() or (ltg < 0).any() or (ltg > t.shape[1]).any():
        raise ValueError("For 'CTCLoss', the 'input_lengths' must lie in [0, %d] and 'target_lengths' in [0, %d], "
                         "but got %s and %s." % (steps, t.shape[1], lin.tolist(), ltg.tolist()))
    for row, n in zip(t, ltg):
        row = row[:n]
        if row.size and (row.min() < 0 or row.max() >= classes or (row == blank).any()):
            raise ValueError("For 'CTCLoss', the 'targets' must be classes in [0, %d) other than blank %d, but got %s."
                             % (classes, blank, row.tolist()))


def _ctc_nll(log_probs, targets, input_lengths, target_lengths, blank):
    """-log p(target | input) per sample by the CTC alpha recursion over (T, N, C) log-probabilities,
    targets (N, S) padded; made of tensor ops (masks from the lengths), so it also compiles."""
    steps, batch, _ = log_probs.shape
    dtype = log_probs.dtype
    width = 2 * targets.shape[1] + 1
    targets = ops.cast(targets, mstype.int32)
    tl = ops.reshape(ops.cast(target_lengths, mstype.int32), (batch, 1))
    il = ops.reshape(ops.cast(input_lengths, mstype.int32), (batch, 1))
    blanks = ops.fill(mstype.int32, targets.shape, blank)
    # The extended sequence: blank, t0, blank, t1, ..., blank.
    extended = ops.concat((ops.reshape(ops.stack((blanks, targets), 2), (batch, -1)),
                           ops.fill(mstype.int32, (batch, 1), blank)), 1)
    position = Tensor(np.arange(width, dtype=np.int32).reshape(1, width))
    valid = position < 2 * tl + 1
    before2 = ops.concat((ops.fill(mstype.int32, (batch, 2), blank), extended[:, :-2]), 1)
    skip = ops.logical_and(extended != before2, extended != blank)    # may come from s - 2
    index = ops.clip(extended, 0, log_probs.shape[2] - 1)
    emit = ops.gather_elements(log_probs, 2, ops.broadcast_to(ops.expand_dims(index, 0), (steps, batch, width)))
    neg = ops.fill(dtype, (batch, width), _NEG)
    start = ops.logical_or(position == 0, ops.logical_and(position == 1, valid))
    alpha = ops.select(start, emit[0], neg)
    pad1 = ops.fill(dtype, (batch, 1), _NEG)
    pad2 = ops.fill(dtype, (batch, 2), _NEG)
    for step in range(1, steps):
        prev1 = ops.concat((pad1, alpha[:, :-1]), 1)
        prev2 = ops.select(skip, ops.concat((pad2, alpha[:, :-2]), 1), neg)
        moved = ops.select(valid, _logsumexp([alpha, prev1, prev2]) + emit[step], neg)
        alpha = ops.select(ops.broadcast_to(il > step, (batch, width)), moved, alpha)
    ends = ops.logical_or(position == 2 * tl, position == 2 * tl - 1)
    final = ops.select(ends, alpha, neg)
    nll = -_logsumexp([final[:, k] for k in range(width)])
    # A sample with no input steps explains only an empty target.
    no_input = ops.reshape(il == 0, (batch,))
    empty_target = ops.reshape(tl == 0, (batch,))
    nll = ops.select(ops.logical_and(no_input, empty_target), ops.zeros_like(nll), nll)
    return ops.select(ops.logical_and(no_input, ops.logical_not(empty_target)), ops.fill(dtype, (batch,), -_NEG), nll)


class CTCLoss(LossBase):
    """Connectionist temporal classification loss of (T, N, C) log-probabilities against targets
    ((N, S) padded or the concatenated target sequences), input_lengths and target_lengths;
    'mean' divides each sample's loss by its target length before averaging; impossible
    alignments give inf (0 with zero_infinity)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        if isinstance(blank, bool) or not isinstance(blank, int):
            raise TypeError("For 'CTCLoss', the type of 'blank' must be int, but got %s." % type(blank).__name__)
        if blank < 0:
            raise ValueError("For 'CTCLoss', the 'blank' must be no less than 0, but got %d." % blank)
        if not isinstance(zero_infinity, bool):
            raise TypeError("For 'CTCLoss', the type of 'zero_infinity' must be bool, but got %s."
                            % type(zero_infinity).__name__)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        if log_probs.ndim not in (2, 3):
            raise ValueError("For 'CTCLoss', the 'log_probs' must be (T, N, C) or (T, C), but got shape %s."
                             % (tuple(log_probs.shape),))
        unbatched = log_probs.ndim == 2
        as_tensor = (lambda v: v if isinstance(v, Tensor) else Tensor(np.asarray(v), mstype.int32))
        targets, input_lengths, target_lengths = (as_tensor(v) for v in (targets, input_lengths, target_lengths))
        if unbatched:
            log_probs = ops.expand_dims(log_probs, 1)
            targets = ops.reshape(targets, (1, -1))
            input_lengths, target_lengths = ops.reshape(input_lengths, (1,)), ops.reshape(target_lengths, (1,))
        steps, batch, classes = log_probs.shape
        if self.blank >= classes:
            raise ValueError("For 'CTCLoss', the 'blank' (%d) must be less than the number of classes (%d)."
                             % (self.blank, classes))
        if input_lengths.size != batch or target_lengths.size != batch:
            raise ValueError("For 'CTCLoss', the 'input_lengths' and 'target_lengths' must have %d elements, but got "
                             "%d and %d." % (batch, input_lengths.size, target_lengths.size))
        if targets.ndim == 1:
            # The concatenated targets: padded per sample on the host (the lengths decide where each starts).
            flat = deciding_values("CTCLoss", targets)
            lengths = deciding_values("CTCLoss", target_lengths).reshape(-1).astype(np.int64)
            padded = np.full((batch, max(int(lengths.max(initial=0)), 1)), self.blank, np.int32)
            offsets = np.concatenate([[0], np.cumsum(lengths)])
            for b in range(batch):
                padded[b, :lengths[b]] = flat[offsets[b]:offsets[b + 1]]
            targets = Tensor(padded)
        elif targets.ndim != 2 or targets.shape[0] != batch:
            raise ValueError("For 'CTCLoss', the 'targets' must be (N, S) or 1-D, but got shape %s."
                             % (tuple(targets.shape),))
        _check_ctc_values(targets, input_lengths, target_lengths, steps, classes, self.blank)
        nll = _ctc_nll(log_probs, targets, input_lengths, target_lengths, self.blank)
        impossible = nll >= -_NEG / 2
        if self.zero_infinity:
            nll = ops.select(impossible, ops.zeros_like(nll), nll)
        else:
            nll = ops.select(impossible, ops.fill(nll.dtype, nll.shape, float("inf")), nll)
        if self.reduction == "mean":
            return ops.mean(nll / ops.maximum(ops.cast(target_lengths, nll.dtype), 1.0))
        if self.reduction == "sum":
            return ops.sum(nll)
        return ops.squeeze(nll, 0) if unbatched else nll


def _uniform_candidates(labels, num_sampled, num_classes, remove_accidental_hits, seed):
    """MindSpore's UniformCandidateSampler with unique=True: num_sampled distinct classes drawn
    uniformly (the batch's true classes left out with remove_accidental_hits), and the expected
    counts num_sampled / num_classes of the true and the sampled classes."""
    from mindspore.ops._functional_random import _rng
    pool = np.arange(num_classes)
    if remove_accidental_hits:
        pool = np.setdiff1d(pool, labels.reshape(-1))
    if len(pool) < num_sampled:
        raise ValueError("For 'SampledSoftmaxLoss', only %d classes are left to sample %d from after removing the "
                         "true classes." % (len(pool), num_sampled))
    sampled = _rng("UniformCandidateSampler", seed or None).choice(pool, num_sampled, replace=False)
    expected = num_sampled / float(num_classes)
    return sampled, np.full(labels.shape, expected), np.full((num_sampled,), expected)


class SampledSoftmaxLoss(LossBase):
    """Softmax cross entropy over each example's true classes and num_sampled sampled classes
    only: logits x . w_c + b_c - log(expected count of c), the true classes sharing probability 1.
    Without sampled_values the classes are drawn uniformly (MindSpore's UniformCandidateSampler)."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
                 seed=0, reduction="none"):
        super().__init__(reduction)
        who = "SampledSoftmaxLoss"
        for name, value in (("num_sampled", num_sampled), ("num_classes", num_classes), ("num_true", num_true),
                            ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("For '%s', the type of '%s' must be int, but got %s."
                                % (who, name, type(value).__name__))
        if num_true < 1:
            raise ValueError("For '%s', the 'num_true' must be greater than or equal to 1, but got %d." % (who, num_true))
        if seed < 0:
            raise ValueError("For '%s', the 'seed' must be greater than or equal to 0, but got %d." % (who, seed))
        if num_sampled > num_classes:
            raise ValueError("For '%s', the 'num_sampled' must be smaller than or equal to 'num_classes', but got "
                             "'num_sampled': %d and 'num_classes': %d." % (who, num_sampled, num_classes))
        if num_true > num_classes:
            raise ValueError("For '%s', the 'num_true' must be smaller than or equal to 'num_classes', but got "
                             "'num_true': %d and 'num_classes': %d." % (who, num_true, num_classes))
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError("For '%s', the type of 'sampled_values' must be a list or tuple, but got %s."
                                % (who, type(sampled_values).__name__))
            if len(sampled_values) != 3:
                raise ValueError("For '%s', the length of 'sampled_values' must be equal to 3, but got %d."
                                 % (who, len(sampled_values)))
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values, self.remove_accidental_hits, self.seed = sampled_values, remove_accidental_hits, seed

    def construct(self, weights, biases, labels, logits):
        who = "SampledSoftmaxLoss"
        for name, value in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            if not isinstance(value, Tensor):
                raise TypeError("For '%s', the '%s' must be a Tensor, but got %s." % (who, name, type(value).__name__))
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For '%s', the dtype of 'labels' must be int32 or int64, but got %s." % (who, labels.dtype))
        labels = ops.reshape(ops.cast(labels, mstype.int32), (-1, self.num_true))
        values = known_values(labels)
        if values is not None and values.size and (values.min() < 0 or values.max() >= self.num_classes):
            raise ValueError("For '%s', the 'labels' must be in [0, %d), but got values in [%d, %d]."
                             % (who, self.num_classes, values.min(), values.max()))
        dtype = logits.dtype
        if self.sampled_values is None:
            drawn = _uniform_candidates(deciding_values(who, labels), self.num_sampled, self.num_classes,
                                        self.remove_accidental_hits, self.seed)
            sampled, true_expected, sampled_expected = (Tensor(v) for v in drawn)
        else:
            as_tensor = (lambda v: v if isinstance(v, Tensor) else Tensor(np.asarray(v)))
            sampled, true_expected, sampled_expected = (as_tensor(v) for v in self.sampled_values)
        rows = labels.shape[0]
        true_w = ops.reshape(ops.gather(weights, ops.reshape(labels, (-1,)), 0), (rows, self.num_true, -1))
        true_b = ops.reshape(ops.gather(biases, ops.reshape(labels, (-1,)), 0), (rows, self.num_true))
        true_logits = ops.sum(ops.expand_dims(logits, 1) * true_w, -1) + true_b
        sampled = ops.reshape(ops.cast(sampled, mstype.int32), (-1,))
        sampled_logits = ops.matmul(logits, ops.transpose(ops.gather(weights, sampled, 0), (1, 0))) \
            + ops.gather(biases, sampled, 0)
        # Subtract log Q, the expected count of each class in the sample.
        true_logits = true_logits - ops.reshape(ops.log(ops.cast(true_expected, dtype)), (rows, self.num_true))
        sampled_logits = sampled_logits - ops.reshape(ops.log(ops.cast(sampled_expected, dtype)), (1, -1))
        all_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.fill(dtype, (rows, self.num_true), 1.0 / self.num_true),
                              ops.zeros_like(sampled_logits)), 1)
        log_p = all_logits - ops.logsumexp(all_logits, 1, True)
        return self.get_loss(-ops.sum(targets * log_p, 1))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
