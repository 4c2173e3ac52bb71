"""Losses with weights: binary_cross_entropy_with_logits and nn.BCEWithLogitsLoss with 'weight' and
'pos_weight' (MindSpore 2.2: -w (p y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))), reduced), as the
autograd tutorial calls them, and cross_entropy / nn.CrossEntropyLoss with class weights (the mean
divides by the picked weights); values against NumPy in float64, gradients against finite
differences."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

from _check import close, fd_grad, raises

x = np.array([[0.5, -2.0, 3.0], [-0.25, 1.5, -4.0]])
y = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
w = np.array([[1.0, 2.0, 0.5], [3.0, 1.0, 1.0]])
p = np.array([2.0, 0.5, 4.0])                                 # one per class, broadcast
s = 1.0 / (1.0 + np.exp(-x))
expected = -w * (p * y * np.log(s) + (1 - y) * np.log(1 - s))

T = lambda a: Tensor(a.astype(np.float32))                    # noqa: E731
close(ops.binary_cross_entropy_with_logits(T(x), T(y), T(w), T(p), "none"), expected, rtol=1e-5)
close(ops.binary_cross_entropy_with_logits(T(x), T(y), T(w), T(p)), expected.mean(), rtol=1e-5)
close(ops.binary_cross_entropy_with_logits(T(x), T(y), None, T(p), "sum"),
      (-(p * y * np.log(s) + (1 - y) * np.log(1 - s))).sum(), rtol=1e-5)
close(nn.BCEWithLogitsLoss(weight=T(w), pos_weight=T(p))(T(x), T(y)), expected.mean(), rtol=1e-5)
close(nn.BCEWithLogitsLoss("sum", pos_weight=T(p))(T(x), T(y)),
      (-(p * y * np.log(s) + (1 - y) * np.log(1 - s))).sum(), rtol=1e-5)
# large logits stay finite (the stable form)
big = ops.binary_cross_entropy_with_logits(Tensor([[80.0, -80.0]]), Tensor([[0.0, 1.0]]), None,
                                           Tensor([3.0, 3.0]), "none")
close(big, [[80.0, 240.0]], rtol=1e-5)

# gradient with respect to the logits, float64
loss_fn = nn.BCEWithLogitsLoss(weight=Tensor(w), pos_weight=Tensor(p))
analytic = ms.grad(lambda t: loss_fn(t, Tensor(y)))(Tensor(x))
numeric = fd_grad(lambda t: loss_fn(t, Tensor(y)), x)
close(analytic, numeric, rtol=1e-6, atol=1e-8)
close(analytic, (w * ((1 + (p - 1) * y) * s - p * y)) / x.size, rtol=1e-9, atol=1e-12)

# cross entropy with class weights: class indices and class probabilities as targets
logits = np.random.RandomState(0).randn(4, 3)
labels = np.array([0, 1, 2, 1])
cw = np.array([1.0, 2.0, 3.0])
logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
picked = -cw[labels] * logp[np.arange(4), labels]
close(ops.cross_entropy(T(logits), Tensor(labels, ms.int32), weight=T(cw)), picked.sum() / cw[labels].sum(), rtol=1e-5)
close(nn.CrossEntropyLoss(weight=T(cw), reduction="none")(T(logits), Tensor(labels, ms.int32)), picked, rtol=1e-5)
probs = np.exp(logp)
close(ops.cross_entropy(T(logits), T(probs), weight=T(cw)), -(cw * probs * logp).sum(1).mean(), rtol=1e-5)
ce = nn.CrossEntropyLoss(weight=Tensor(cw))
close(ms.grad(lambda t: ce(t, Tensor(labels, ms.int32)))(Tensor(logits)),
      fd_grad(lambda t: ce(t, Tensor(labels, ms.int32)), logits), rtol=1e-6, atol=1e-8)

raises(TypeError, nn.BCEWithLogitsLoss, weight=[1.0, 2.0], match="'weight' must be a Tensor or None")
print("ok")
