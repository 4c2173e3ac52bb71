"""nn HingeEmbeddingLoss, MultiLabelSoftMarginLoss, MultiLabelMarginLoss, MultiClassDiceLoss and
CTCLoss: values against closed forms, MindSpore's documented examples and a brute-force CTC sum
over all alignments; gradients against finite differences."""
import itertools

import numpy as np

import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor

from _check import check_grad, close, raises

rng = np.random.default_rng(7)

x = rng.standard_normal((3, 4))
y = np.sign(rng.standard_normal((3, 4)))
want = np.where(y > 0, x, np.maximum(0, 1.5 - x))
close(nn.HingeEmbeddingLoss(1.5, "none")(Tensor(x), Tensor(y)), want)
close(nn.HingeEmbeddingLoss(1.5)(Tensor(x), Tensor(y)), want.mean())
check_grad(lambda t: nn.HingeEmbeddingLoss(1.5, "sum")(t, Tensor(y)), x)
raises(TypeError, nn.HingeEmbeddingLoss, "1", match="'margin' must be float")

# MindSpore's examples.
close(nn.MultiLabelSoftMarginLoss()(Tensor(np.array([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]]), ms.float32),
                                    Tensor(np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]), ms.float32)), 0.84693956)
sig = 1 / (1 + np.exp(-x))
t01 = (y > 0).astype(np.float64)
w = np.array([1.0, 2.0, 0.5, 1.0])
per = -(w * (t01 * np.log(sig) + (1 - t01) * np.log(1 - sig))).mean(-1)
close(nn.MultiLabelSoftMarginLoss(Tensor(w), "none")(Tensor(x), Tensor(t01)), per)
check_grad(lambda t: nn.MultiLabelSoftMarginLoss()(t, Tensor(t01)), x)

mlm = nn.MultiLabelMarginLoss()
close(mlm(Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]]), ms.float32),
          Tensor(np.array([[1, 2, 0, 3], [2, 3, -1, 1]]), ms.int32)), 0.325, rtol=1e-6)
close(nn.MultiLabelMarginLoss("none")(Tensor(np.array([0.1, 0.2, 0.4, 0.8]), ms.float32),
                                      Tensor(np.array([3, 0, -1, 1]), ms.int32)), 0.85, rtol=1e-6)
tgt = Tensor(np.array([[2, 1, -1, 0], [0, -1, 1, 1], [3, 2, 1, 0]]), ms.int32)
check_grad(lambda t: nn.MultiLabelMarginLoss("sum")(t, tgt), x)
raises(ValueError, mlm, Tensor(x), Tensor(np.array([[4, -1, 0, 0]] * 3), ms.int32), match="in [-1, 4)")

close(nn.MultiClassDiceLoss()(Tensor(np.array([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5], [0.9, 0.6, 0.3]]), ms.float32),
                              Tensor(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]]), ms.float32)), 0.54958105, rtol=1e-6)
onehot = np.eye(4)[[0, 2, 3]]
dice = nn.MultiClassDiceLoss(weights=Tensor(np.array([[1.0], [0.0], [2.0], [1.0]])), ignore_indiex=3,
                             activation=None)
s = np.abs(x)
parts = [1 - 2 * (s[:, i] @ onehot[:, i]) / (s[:, i] @ s[:, i] + onehot[:, i] @ onehot[:, i] + 1e-5) for i in range(4)]
close(dice(Tensor(s), Tensor(onehot)), [(parts[0] * 1.0 + parts[2] * 2.0) / 4])  # weights[i] keeps its axis
raises(ValueError, nn.MultiClassDiceLoss(), Tensor(x), Tensor(x[:, :3]), match="shape of 'logits'")
# MindSpore's argument checks: weights a Tensor (TypeError) of rank 2 (ValueError), activation one
# of its six names (ValueError) or a Cell (TypeError).
raises(TypeError, nn.MultiClassDiceLoss, weights='1', match="the type of 'weights' should be 'Tensor'")
raises(ValueError, nn.MultiClassDiceLoss, weights=Tensor(np.ones(3)), match="dimension of 'weights' should be 2, but got 1")
raises(TypeError, nn.MultiClassDiceLoss, ignore_indiex="2", match="the type of 'ignore_indiex' should be 'int'")
raises(TypeError, nn.MultiClassDiceLoss, activation=2, match="the 'activation' must be str or Cell")
raises(ValueError, nn.MultiClassDiceLoss, activation="gelu", match="the 'activation' must be in ['softmax'")
assert isinstance(nn.MultiClassDiceLoss(activation=nn.Sigmoid()).activation, nn.Sigmoid)

# CTC: the loss is -log of the summed probability of every alignment that collapses to the target.
T, N, C = 4, 3, 3
lp = rng.standard_normal((T, N, C))
lp = lp - np.log(np.exp(lp).sum(-1, keepdims=True))
targets = np.array([[1, 2], [1, 1], [2, 0]])
in_len, tg_len = np.array([4, 3, 4]), np.array([2, 2, 1])


def brute(b):
    total = 0.0
    for path in itertools.product(range(C), repeat=int(in_len[b])):
        collapsed = [k for k, _ in itertools.groupby(path) if k != 0]
        if collapsed == list(targets[b, :tg_len[b]]):
            total += np.exp(sum(lp[t, b, path[t]] for t in range(in_len[b])))
    return -np.log(total)


want = np.array([brute(b) for b in range(N)])
args = (Tensor(targets, ms.int32), Tensor(in_len, ms.int32), Tensor(tg_len, ms.int32))
close(nn.CTCLoss(reduction="none")(Tensor(lp), *args), want)
close(nn.CTCLoss()(Tensor(lp), *args), (want / tg_len).mean())
close(nn.CTCLoss(reduction="sum")(Tensor(lp), Tensor(np.array([1, 2, 1, 1, 2]), ms.int32), *args[1:]), want.sum())
check_grad(lambda t: nn.CTCLoss(reduction="sum")(t, *args), lp)
# Two equal labels need a blank between them, so 2 steps cannot emit "1 1".
short = (Tensor(np.array([[1, 1]]), ms.int32), Tensor(np.array([2]), ms.int32), Tensor(np.array([2]), ms.int32))
assert np.isinf(nn.CTCLoss(reduction="none")(Tensor(lp[:, :1]), *short).asnumpy()).all()
close(nn.CTCLoss(reduction="none", zero_infinity=True)(Tensor(lp[:, :1]), *short), [0.0])
raises(ValueError, nn.CTCLoss(), Tensor(lp), Tensor(np.array([[1, 3], [1, 1], [2, 1]]), ms.int32), *args[1:],
       match="'targets' must be classes in [0, 3)")
raises(ValueError, nn.CTCLoss(blank=3), Tensor(lp), *args, match="'blank' (3) must be less than")

# SampledSoftmaxLoss with given samples: cross entropy over [true, sampled] logits minus log expected counts.
W, b, feats = rng.standard_normal((7, 4)), rng.standard_normal(7), rng.standard_normal((3, 4))
labels = np.array([[0], [1], [2]])
samples = (np.array([3, 5, 6]), np.full((3, 1), 3 / 7), np.full(3, 3 / 7))
z = np.concatenate([((feats * W[labels[:, 0]]).sum(1) + b[labels[:, 0]])[:, None],
                    feats @ W[[3, 5, 6]].T + b[[3, 5, 6]]], 1) - np.log(3 / 7)
want = np.log(np.exp(z).sum(1)) - z[:, 0]
sampled_loss = nn.SampledSoftmaxLoss(3, 7, sampled_values=samples)
close(sampled_loss(Tensor(W), Tensor(b), Tensor(labels, ms.int32), Tensor(feats)), want)
check_grad(lambda t: sampled_loss(Tensor(W), Tensor(b), Tensor(labels, ms.int32), t).sum(), feats)
ms.set_seed(3)
drawn = nn.SampledSoftmaxLoss(4, 7, reduction="mean")(Tensor(W), Tensor(b), Tensor(labels.ravel(), ms.int32),
                                                     Tensor(feats))
# Removing the 3 true classes leaves exactly 4 to draw: the sample is {3, 4, 5, 6} in some order.
z = np.concatenate([((feats * W[labels[:, 0]]).sum(1) + b[labels[:, 0]])[:, None],
                    feats @ W[[3, 4, 5, 6]].T + b[[3, 4, 5, 6]]], 1) - np.log(4 / 7)
close(drawn, (np.log(np.exp(z).sum(1)) - z[:, 0]).mean())
raises(ValueError, nn.SampledSoftmaxLoss, 8, 7, match="'num_sampled' must be smaller than or equal to 'num_classes'")
raises(ValueError, nn.SampledSoftmaxLoss(5, 7), Tensor(W), Tensor(b), Tensor(labels, ms.int32), Tensor(feats),
       match="only 4 classes are left")  # 7 classes minus the 3 true ones cannot give 5 distinct samples
