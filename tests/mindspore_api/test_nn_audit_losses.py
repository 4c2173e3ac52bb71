"""Losses against NumPy / PyTorch's documented formulas: the new MultiMarginLoss, TripletMarginLoss,
PoissonNLLLoss, GaussianNLLLoss, FocalLoss, and an audit of CrossEntropyLoss (weight, ignore_index,
label_smoothing), SoftmaxCrossEntropyWithLogits, NLLLoss, BCELoss, BCEWithLogitsLoss, KLDivLoss,
HuberLoss, SmoothL1Loss, CosineEmbeddingLoss, MarginRankingLoss, DiceLoss, RMSELoss, MAELoss;
float64 gradients against finite differences; LossBase subclasses with and without __init__."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import close, fd_grad, raises

rng = np.random.RandomState(11)
X = rng.randn(4, 5)
Y = rng.randn(4, 5)
LB = np.array([1, 0, 4, 2])
P01 = rng.uniform(0.05, 0.95, (4, 5))
T01 = rng.randint(0, 2, (4, 5)).astype(np.float64)


def t(a, dtype=np.float32):
    return Tensor(np.asarray(a, dtype))


def check(loss, inputs, want, grad_of=0, rtol=1e-5, atol=1e-6):
    """Value in float32, and d(loss.sum())/d(inputs[grad_of]) in float64 against finite differences."""
    got = loss(*[t(a) if a.dtype.kind == "f" else Tensor(a) for a in inputs])
    close(got, np.asarray(want, np.float32), rtol, atol)
    base = [Tensor(a) for a in inputs]

    def f(v):
        args = list(base)
        args[grad_of] = v
        return loss(*args).sum()
    close(ms.grad(f)(base[grad_of]), fd_grad(f, inputs[grad_of]), 1e-5, 1e-6)


def log_softmax(x, axis=1):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


# MultiMarginLoss, p = 1 and 2, with weight.
def np_multi_margin(x, y, p, margin, w):
    hot = np.eye(x.shape[1])[y]
    m = np.maximum(0, margin - (x * hot).sum(1, keepdims=True) + x) * (1 - hot)
    return ((m ** p) * w[y][:, None]).sum(1) / x.shape[1]


W5 = rng.uniform(0.5, 1.5, 5)
check(nn.MultiMarginLoss(), (X, LB.astype(np.int64)), np_multi_margin(X, LB, 1, 1.0, np.ones(5)).mean())
check(nn.MultiMarginLoss(p=2, margin=0.5, reduction="none", weight=Tensor(W5)), (X, LB.astype(np.int64)),
      np_multi_margin(X, LB, 2, 0.5, W5))
raises(ValueError, nn.MultiMarginLoss, p=3, match="'p' must be one of [1, 2]")


# TripletMarginLoss, p = 2 and 1, swap.
def np_triplet(a, p, n, norm, swap, eps=1e-6, margin=1.0):
    d = lambda u, v: (np.abs(u - v + eps) ** norm).sum(1) ** (1 / norm)
    dn = np.minimum(d(a, n), d(p, n)) if swap else d(a, n)
    return np.maximum(d(a, p) - dn + margin, 0)


N3 = rng.randn(4, 5) * 0.5
check(nn.TripletMarginLoss(), (X, Y, N3), np_triplet(X, Y, N3, 2, False).mean())
check(nn.TripletMarginLoss(p=1, swap=True, reduction="sum"), (X, X + 0.3, N3), np_triplet(X, X + 0.3, N3, 1, True).sum())

# PoissonNLLLoss: log input, and probabilities with the Stirling term.
TGT = rng.randint(0, 5, (4, 5)).astype(np.float64)
check(nn.PoissonNLLLoss(), (X, TGT), (np.exp(X) - TGT * X).mean())
stirling = np.where(TGT > 1, TGT * np.log(np.maximum(TGT, 1)) - TGT + 0.5 * np.log(2 * np.pi * np.maximum(TGT, 1)), 0)
check(nn.PoissonNLLLoss(log_input=False, full=True, reduction="none"), (P01, TGT),
      P01 - TGT * np.log(P01 + 1e-8) + stirling)

# GaussianNLLLoss: a full-shaped var, a var without the last axis, full, eps clamp.
VAR = rng.uniform(0.2, 2.0, (4, 5))
check(nn.GaussianNLLLoss(), (X, Y, VAR), (0.5 * (np.log(VAR) + (X - Y) ** 2 / VAR)).mean())
v4 = VAR[:, 0]
check(nn.GaussianNLLLoss(full=True, reduction="sum"), (X, Y, v4),
      (0.5 * (np.log(v4[:, None]) + (X - Y) ** 2 / v4[:, None]) + 0.5 * np.log(2 * np.pi)).sum())
tiny = np.full((4, 5), 1e-9)
close(nn.GaussianNLLLoss(eps=1e-3)(t(X), t(Y), t(tiny)), np.float32((0.5 * (np.log(1e-3) + (X - Y) ** 2 / 1e-3)).mean()),
      1e-4)

# In graph mode too: the non-negative check on var has no values while the graph compiles.
ms.set_context(mode=ms.GRAPH_MODE)
close(nn.GaussianNLLLoss(full=True)(t(X), t(Y), t(VAR)),
      np.float32((0.5 * (np.log(VAR) + (X - Y) ** 2 / VAR) + 0.5 * np.log(2 * np.pi)).mean()), 1e-5)
ms.set_context(mode=ms.PYNATIVE_MODE)

# FocalLoss: MindSpore's documented example (class-index labels, weight) and one-hot 4-D labels.
logits = np.array([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]])
labels = np.array([[1], [1], [0]], np.int32)
lp = log_softmax(logits)
want = (-(1 - np.exp(lp)) ** 2 * lp * np.eye(2)[labels[:, 0]] * np.array([0.1, 0.2])).sum(1).mean()
close(nn.FocalLoss(weight=Tensor([0.1, 0.2], ms.float32), gamma=2.0)(t(logits), Tensor(labels)), np.float32(want))
assert abs(want - 0.01258677) < 1e-4   # the value MindSpore's documentation prints (computed on Ascend)
L4 = rng.randn(2, 3, 2, 2)
H4 = np.eye(3)[rng.randint(0, 3, (2, 2, 2))].transpose(0, 3, 1, 2)
lp4 = log_softmax(L4)
check(nn.FocalLoss(gamma=1.5, reduction="none"), (L4, H4), (-(1 - np.exp(lp4)) ** 1.5 * lp4 * H4).sum(1).reshape(2, 4))
raises(ValueError, nn.FocalLoss(), t(X), t(X[:, :2]), match="the channel of 'labels'")

# CrossEntropyLoss with weight, ignore_index and label smoothing (PyTorch's definition).
def np_ce(x, y, w, ignore, eps):
    lp = log_softmax(x)
    n, c = x.shape
    keep = y != ignore
    y0 = np.where(keep, y, 0)
    nll = -lp[np.arange(n), y0] * w[y0] * keep
    smooth = -(lp * w[None, :]).sum(1) * keep
    return ((1 - eps) * nll.sum() + eps / c * smooth.sum()) / (w[y0] * keep).sum()


check(nn.CrossEntropyLoss(weight=Tensor(W5, ms.float32), ignore_index=2, label_smoothing=0.1), (X, LB.astype(np.int32)),
      np_ce(X, LB, W5, 2, 0.1), rtol=1e-4)
check(nn.CrossEntropyLoss(weight=Tensor(W5), ignore_index=2, label_smoothing=0.1), (X, LB.astype(np.int32)),
      np_ce(X, LB, W5, 2, 0.1), rtol=1e-4)
check(nn.CrossEntropyLoss(reduction="sum"), (X, LB.astype(np.int32)), -log_softmax(X)[np.arange(4), LB].sum())
# SoftmaxCrossEntropyWithLogits: reduction 'none' by default; sparse labels.
check(nn.SoftmaxCrossEntropyWithLogits(sparse=True), (X, LB.astype(np.int32)), -log_softmax(X)[np.arange(4), LB])
check(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), (X, LB.astype(np.int32)),
      -log_softmax(X)[np.arange(4), LB].mean())
check(nn.NLLLoss(), (log_softmax(X), LB.astype(np.int32)), -log_softmax(X)[np.arange(4), LB].mean())
check(nn.BCELoss(reduction="mean"), (P01, T01), -(T01 * np.log(P01) + (1 - T01) * np.log(1 - P01)).mean())
sig = 1 / (1 + np.exp(-X))
check(nn.BCEWithLogitsLoss(), (X, T01), -(T01 * np.log(sig) + (1 - T01) * np.log(1 - sig)).mean())
check(nn.KLDivLoss(reduction="sum"), (X, P01), (P01 * (np.log(P01) - X)).sum())
d = X - Y
check(nn.HuberLoss(delta=0.7), (X, Y), np.where(np.abs(d) < 0.7, 0.5 * d * d, 0.7 * (np.abs(d) - 0.35)).mean())
check(nn.SmoothL1Loss(beta=0.5), (X, Y), np.where(np.abs(d) < 0.5, 0.5 * d * d / 0.5, np.abs(d) - 0.25))
check(nn.RMSELoss(), (X, Y), np.sqrt((d * d).mean()))
check(nn.MAELoss(), (X, Y), np.abs(d).mean())
check(nn.L1Loss(), (X, Y), np.abs(d).mean())
check(nn.MSELoss(), (X, Y), (d * d).mean())
SGN = np.array([1, -1, 1, -1], np.int32)
cos = (X * Y).sum(1) / np.linalg.norm(X, axis=1) / np.linalg.norm(Y, axis=1)
check(nn.CosineEmbeddingLoss(margin=0.1), (X, Y, SGN), np.where(SGN > 0, 1 - cos, np.maximum(cos - 0.1, 0)).mean())
S45 = np.sign(rng.randn(4, 5))
check(nn.MarginRankingLoss(margin=0.2), (X, Y, S45), np.maximum(0, -S45 * (X - Y) + 0.2).mean())
inter = (P01 * T01).sum()
check(nn.DiceLoss(smooth=1e-5), (P01, T01), 1 - (2 * inter + 1e-5) / ((P01 * P01).sum() + (T01 * T01).sum() + 1e-5))


# LossBase subclasses, with and without their own __init__.
class Plain(nn.LossBase):
    def construct(self, a, b):
        return self.get_loss(ms.ops.abs(a - b))


class Summed(nn.LossBase):
    def __init__(self):
        super().__init__("sum")

    def construct(self, a, b):
        return self.get_loss(ms.ops.abs(a - b), weights=2.0)


close(Plain()(t(X), t(Y)), np.float32(np.abs(d).mean()))
close(Summed()(t(X), t(Y)), np.float32(2 * np.abs(d).sum()), 1e-5)
assert isinstance(nn.MSELoss(), nn.LossBase) and isinstance(nn.FocalLoss(), nn.LossBase)
raises(ValueError, Plain, "avg", match="'reduction' must be in")

# ops.cross_entropy checks its arguments as MindSpore's does (named 'cross_entropy_loss').
ce_in, ce_tg = t(X), Tensor(LB.astype(np.int32))
raises(TypeError, ms.ops.cross_entropy, ce_in, ce_tg, ignore_index='1', match="the type of 'ignore_index' should be 'int'")
raises(TypeError, ms.ops.cross_entropy, ce_in, ce_tg, np.ones(5, np.float32))
raises(TypeError, ms.ops.cross_entropy, ce_in, ce_tg, label_smoothing='0.5', match="'label_smoothing' should be 'float'")
raises(ValueError, ms.ops.cross_entropy, ce_in, ce_tg, label_smoothing=-0.1, match="non-negative")
