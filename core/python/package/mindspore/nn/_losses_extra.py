"""Losses of MindSpore 2.2 the package lacked, composed from mindspore.ops: HingeEmbeddingLoss,
MultiLabelSoftMarginLoss, MultiLabelMarginLoss, MultiClassDiceLoss and CTCLoss (LossBase
subclasses) and SampledSoftmaxLoss. CTCLoss runs the CTC forward (alpha) recursion in log space over time, so its
gradient is the recursion's own."""
import numpy as np

import mindspore.nn as _nn
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype
from mindspore.nn._losses import DiceLoss, LossBase, _check_float, _check_same_shape

__all__ = ["HingeEmbeddingLoss", "MultiLabelSoftMarginLoss", "MultiLabelMarginLoss", "MultiClassDiceLoss",
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
        target = ops.cast(target, x.dtype)
        # log sigmoid(x) = -softplus(-x), computed stably.
        per_class = target * ops.softplus(-x) + (1.0 - target) * ops.softplus(x)
        if self.weight is not None:
            per_class = per_class * ops.cast(self.weight, x.dtype)
        return self.get_loss(ops.mean(per_class, -1))


class MultiLabelMarginLoss(LossBase):
    """For each sample, the sum over its target classes j (target's entries up to the first -1)
    and the other classes i of max(0, 1 - (x[j] - x[i])), divided by C; (C,) or (N, C) input."""

    def construct(self, x, target):
        if x.ndim not in (1, 2):
            raise ValueError("For 'MultiLabelMarginLoss', the 'x' must be 1-D or 2-D, but got %d-D." % x.ndim)
        _check_same_shape("MultiLabelMarginLoss", x, target, ("x", "target"))
        if target.dtype not in (mstype.int32, mstype.int64):
            raise TypeError("For 'MultiLabelMarginLoss', the dtype of 'target' must be int32, but got %s."
                            % target.dtype)
        one = x.ndim == 1
        xs = ops.expand_dims(x, 0) if one else x
        t = target.asnumpy().reshape(xs.shape).astype(np.int64)
        n, c = t.shape
        is_target = np.zeros((n, c), bool)
        for row in range(n):
            for k in range(c):
                if t[row, k] < 0:
                    break
                if t[row, k] >= c:
                    raise ValueError("For 'MultiLabelMarginLoss', the 'target' values must be in [-1, %d), but got %d."
                                     % (c, t[row, k]))
                is_target[row, t[row, k]] = True
        # pair[n, j, i]: j a target class, i not.
        pair = Tensor((is_target[:, :, None] & ~is_target[:, None, :]).astype(np.float64), xs.dtype)
        margins = ops.relu(1.0 - (ops.expand_dims(xs, 2) - ops.expand_dims(xs, 1))) * pair
        loss = ops.sum(margins, (1, 2)) / c
        return self.get_loss(ops.squeeze(loss, 0) if one else loss)


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of DiceLoss of each class's scores and labels, after the
    activation (softmax over the last axis by default), class i skipped when ignore_indiex == i
    and weighted by weights[i]."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        from mindspore.nn._layers_activation import get_activation
        if weights is not None and (not isinstance(weights, Tensor) or weights.ndim != 2):
            raise ValueError("For 'MultiClassDiceLoss', the 'weights' must be a 2-D Tensor, but got %s."
                             % (type(weights).__name__ if not isinstance(weights, Tensor) else tuple(weights.shape),))
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError("For 'MultiClassDiceLoss', the type of 'ignore_indiex' must be int, but got %s."
                            % type(ignore_indiex).__name__)
        if isinstance(activation, str) and activation not in ("softmax", "logsoftmax", "relu", "relu6", "tanh",
                                                              "gelu", "fast_gelu", "elu", "sigmoid", "prelu",
                                                              "leakyrelu", "hswish", "hsigmoid", "logsigmoid",
                                                              "softsign", "silu", "mish", "softmin", "softplus"):
            raise ValueError("For 'MultiClassDiceLoss', the 'activation' is not a known activation: %s." % activation)
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
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


def _ctc_nll(log_probs, targets, input_lengths, target_lengths, blank):
    """-log p(target | input) per sample by the CTC alpha recursion over (T, N, C) log-probabilities."""
    steps, batch, classes = log_probs.shape
    lengths_in = np.asarray(input_lengths, np.int64).reshape(-1)
    lengths_t = np.asarray(target_lengths, np.int64).reshape(-1)
    if lengths_in.shape[0] != batch or lengths_t.shape[0] != batch:
        raise ValueError("For 'CTCLoss', the 'input_lengths' and 'target_lengths' must have %d elements, but got "
                         "%d and %d." % (batch, lengths_in.shape[0], lengths_t.shape[0]))
    if (lengths_in > steps).any() or (lengths_in < 0).any() or (lengths_t < 0).any():
        raise ValueError("For 'CTCLoss', the 'input_lengths' must lie in [0, %d] and 'target_lengths' must not be "
                         "negative, but got %s and %s." % (steps, lengths_in.tolist(), lengths_t.tolist()))
    t = np.asarray(targets, np.int64)
    if t.ndim == 1:
        offsets = np.concatenate([[0], np.cumsum(lengths_t)])
        rows = [t[offsets[b]:offsets[b + 1]] for b in range(batch)]
    else:
        if t.shape[0] != batch or (lengths_t > t.shape[1]).any():
            raise ValueError("For 'CTCLoss', the 'targets' must be (N, S) with S >= every target length, but got "
                             "%s." % (t.shape,))
        rows = [t[b, :lengths_t[b]] for b in range(batch)]
    for row in rows:
        if row.size and (row.min() < 0 or row.max() >= classes or (row == blank).any()):
            raise ValueError("For 'CTCLoss', the 'targets' must be classes in [0, %d) other than blank %d, but got %s."
                             % (classes, blank, row.tolist()))
    width = 2 * max([len(r) for r in rows] + [0]) + 1
    extended = np.full((batch, width), blank, np.int64)
    skip = np.zeros((batch, width), bool)   # may come from s - 2 (a label differing from the one before it)
    valid = np.zeros((batch, width), bool)
    for b, row in enumerate(rows):
        extended[b, 1:2 * len(row):2] = row
        valid[b, :2 * len(row) + 1] = True
        for s in range(3, 2 * len(row), 2):
            skip[b, s] = extended[b, s] != extended[b, s - 2]
    dtype = log_probs.dtype
    neg = Tensor(_NEG, dtype)
    emit = ops.gather_elements(log_probs, 2, Tensor(np.broadcast_to(extended, (steps, batch, width)).copy(),
                                                    mstype.int64))          # (T, N, width)
    alpha0 = np.full((batch, width), _NEG)
    alpha0[:, 0] = 0.0
    alpha0[:, 1] = np.where(valid[:, 1], 0.0, _NEG)
    alpha = Tensor(alpha0, dtype) + emit[0]
    skip_t, valid_t = Tensor(skip), Tensor(valid)
    pad1 = ops.fill(dtype, (batch, 1), _NEG)
    pad2 = ops.fill(dtype, (batch, 2), _NEG)
    for step in range(1, steps):
        prev1 = ops.concat((pad1, alpha[:, :-1]), 1)
        prev2 = ops.select(skip_t, ops.concat((pad2, alpha[:, :-2]), 1), ops.broadcast_to(neg, alpha.shape))
        moved = _logsumexp([alpha, prev1, prev2]) + emit[step]
        moved = ops.select(valid_t, moved, ops.broadcast_to(neg, alpha.shape))
        running = Tensor((step < lengths_in)[:, None].repeat(width, 1))
        alpha = ops.select(running, moved, alpha)
    ends = np.zeros((batch, width), bool)
    for b, row in enumerate(rows):
        ends[b, 2 * len(row)] = True
        if len(row):
            ends[b, 2 * len(row) - 1] = True
    final = ops.select(Tensor(ends), alpha, ops.broadcast_to(neg, alpha.shape))
    nll = -_logsumexp([final[:, k] for k in range(width)])
    # A sample with no input steps only explains an empty target.
    empty_input = lengths_in == 0
    if empty_input.any():
        nll = ops.select(Tensor(empty_input & (lengths_t == 0)), ops.zeros_like(nll), nll)
        nll = ops.select(Tensor(empty_input & (lengths_t > 0)), ops.broadcast_to(-neg, nll.shape), nll)
    return nll, lengths_t


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
        numpy_of = (lambda v: v.asnumpy() if isinstance(v, Tensor) else np.asarray(v))
        t, lin, ltg = numpy_of(targets), numpy_of(input_lengths), numpy_of(target_lengths)
        if unbatched:
            log_probs = ops.expand_dims(log_probs, 1)
            t = t.reshape(1, -1)
        if self.blank >= log_probs.shape[2]:
            raise ValueError("For 'CTCLoss', the 'blank' (%d) must be less than the number of classes (%d)."
                             % (self.blank, log_probs.shape[2]))
        nll, lengths_t = _ctc_nll(log_probs, t, lin, ltg, self.blank)
        impossible = nll >= -_NEG / 2
        if self.zero_infinity:
            nll = ops.select(impossible, ops.zeros_like(nll), nll)
        else:
            nll = ops.select(impossible, ops.fill(nll.dtype, nll.shape, float("inf")), nll)
        if self.reduction == "mean":
            return ops.mean(nll / Tensor(np.maximum(lengths_t, 1).astype(np.float64), nll.dtype))
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
        ids = labels.asnumpy().reshape(-1, self.num_true).astype(np.int64)
        if ids.size and (ids.min() < 0 or ids.max() >= self.num_classes):
            raise ValueError("For '%s', the 'labels' must be in [0, %d), but got values in [%d, %d]."
                             % (who, self.num_classes, ids.min(), ids.max()))
        if self.sampled_values is None:
            sampled, true_expected, sampled_expected = _uniform_candidates(
                ids, self.num_sampled, self.num_classes, self.remove_accidental_hits, self.seed)
        else:
            as_np = (lambda v: v.asnumpy() if isinstance(v, Tensor) else np.asarray(v))
            sampled, true_expected, sampled_expected = (as_np(v) for v in self.sampled_values)
        dtype = logits.dtype
        true_w = ops.gather(weights, Tensor(ids.reshape(-1), mstype.int32), 0)        # (N * num_true, dim)
        true_w = ops.reshape(true_w, (ids.shape[0], self.num_true, -1))
        true_logits = ops.sum(ops.expand_dims(logits, 1) * true_w, -1) \
            + ops.reshape(ops.gather(biases, Tensor(ids.reshape(-1), mstype.int32), 0), ids.shape)
        sampled_ids = Tensor(np.asarray(sampled).reshape(-1).astype(np.int32))
        sampled_logits = ops.matmul(logits, ops.transpose(ops.gather(weights, sampled_ids, 0), (1, 0))) \
            + ops.gather(biases, sampled_ids, 0)
        true_logits = true_logits - Tensor(np.log(np.asarray(true_expected, np.float64)).reshape(ids.shape), dtype)
        sampled_logits = sampled_logits - Tensor(np.log(np.asarray(sampled_expected, np.float64)).reshape(1, -1),
                                                 dtype)
        all_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = np.concatenate([np.full(ids.shape, 1.0 / self.num_true),
                                  np.zeros((ids.shape[0], len(sampled_ids)))], 1)
        log_p = all_logits - ops.logsumexp(all_logits, 1, True)
        return self.get_loss(-ops.sum(Tensor(targets, dtype) * log_p, 1))


for _name in __all__:
    setattr(_nn, _name, globals()[_name])
