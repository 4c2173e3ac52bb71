"""nn losses: values against NumPy closed forms, gradients against finite differences, LossBase
subclassing and MindSpore's reduction errors."""
import numpy as np

import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor

from _check import close, raises

rng = np.random.default_rng(1)
x, y = rng.standard_normal((4, 3)) * 2, rng.standard_normal((4, 3))


def fd(f, a, eps=1e-6):
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        g[i] = (f(a + d) - f(a - d)) / (2 * eps)
    return g


def check_grad(loss, *args):
    a0 = args[0]
    analytic = ms.grad(lambda t: loss(t, *[Tensor(v) for v in args[1:]]).sum())(Tensor(a0)).asnumpy()
    numeric = fd(lambda a: float(loss(Tensor(a), *[Tensor(v) for v in args[1:]]).asnumpy().sum()), a0)
    assert np.allclose(analytic, numeric, rtol=1e-4, atol=1e-6), (type(loss).__name__, analytic, numeric)


d = np.abs(x - y)
close(nn.SmoothL1Loss()(Tensor(x), Tensor(y)), np.where(d < 1, 0.5 * d ** 2, d - 0.5))
close(nn.SmoothL1Loss(beta=2.0, reduction="sum")(Tensor(x), Tensor(y)), np.where(d < 2, 0.25 * d ** 2, d - 1).sum())
close(nn.HuberLoss(delta=0.5)(Tensor(x), Tensor(y)), np.where(d < 0.5, 0.5 * d ** 2, 0.5 * (d - 0.25)).mean())
close(nn.SoftMarginLoss()(Tensor(x), Tensor(np.sign(y))), np.log1p(np.exp(-np.sign(y) * x)).mean())
close(nn.MAELoss(reduction="none")(Tensor(x), Tensor(y)), d)
close(nn.RMSELoss()(Tensor(x), Tensor(y)), np.sqrt(((x - y) ** 2).mean()))
for loss in (nn.SmoothL1Loss(), nn.HuberLoss(), nn.SoftMarginLoss()):
    check_grad(loss, x, y)

# NLLLoss with class weights and ignore_index; 'mean' divides by the kept weights.
logp = x - np.log(np.exp(x).sum(1, keepdims=True))
t = np.array([0, 2, -100, 1], np.int32)
w = np.array([1.0, 2.0, 3.0])
kept = [0, 1, 3]
want = -sum(w[t[i]] * logp[i, t[i]] for i in kept) / sum(w[t[i]] for i in kept)
close(nn.NLLLoss(weight=Tensor(w))(Tensor(logp), Tensor(t)), want)
close(nn.NLLLoss(reduction="none")(Tensor(logp), Tensor(t)), [-logp[0, 0], -logp[1, 2], 0.0, -logp[3, 1]])
check_grad(lambda a, tt: nn.NLLLoss(weight=Tensor(w))(a, tt), logp, t)
# (N, C, d) input
x3 = rng.standard_normal((2, 3, 2))
t3 = np.array([[0, 2], [1, 1]], np.int32)
close(nn.NLLLoss(reduction="sum")(Tensor(x3), Tensor(t3)), -sum(x3[n, t3[n, k], k] for n in range(2) for k in range(2)))

# CrossEntropyLoss = NLLLoss of log_softmax.
ti = np.array([0, 2, 1, 1], np.int32)
close(nn.CrossEntropyLoss()(Tensor(x), Tensor(ti)), -logp[np.arange(4), ti].mean())
raises(ValueError, nn.CrossEntropyLoss, label_smoothing=2.0, match="label_smoothing")

# BCELoss, KLDivLoss, CosineEmbeddingLoss
p = rng.uniform(0.05, 0.95, (4, 3))
q = (rng.uniform(size=(4, 3)) > 0.5).astype(np.float64)
close(nn.BCELoss(weight=Tensor(w))(Tensor(p), Tensor(q)),
      (-(q * np.log(p) + (1 - q) * np.log(1 - p)) * w).mean(), rtol=1e-6)
check_grad(nn.BCELoss(), p, q)
target = rng.uniform(size=(4, 3))
target[0, 0] = 0
kl = np.where(target > 0, target * (np.log(np.where(target > 0, target, 1)) - logp), 0)
close(nn.KLDivLoss("batchmean")(Tensor(logp), Tensor(target)), kl.sum() / 4)
close(nn.KLDivLoss("none")(Tensor(logp), Tensor(target)), kl)
lab = np.array([1, -1, 1, -1], np.int32)
cos = (x * y).sum(-1) / np.sqrt((x * x).sum(-1) * (y * y).sum(-1))
close(nn.CosineEmbeddingLoss(margin=0.1)(Tensor(x), Tensor(y), Tensor(lab)),
      np.where(lab == 1, 1 - cos, np.maximum(cos - 0.1, 0)).mean())
close(nn.DiceLoss()(Tensor(p), Tensor(q)), 1 - 2 * (p * q).sum() / ((p * p).sum() + (q * q).sum() + 1e-5))

# LossBase: Python subclasses with get_loss; C++ losses are LossBase too.


class WeightedL2(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, labels):
        return self.get_loss((logits - labels) ** 2, weights=2.0)


close(WeightedL2()(Tensor(x), Tensor(y)), (2 * (x - y) ** 2).mean())
close(WeightedL2("sum")(Tensor(x), Tensor(y)), (2 * (x - y) ** 2).sum())
close(WeightedL2("none")(Tensor(x), Tensor(y)), 2 * (x - y) ** 2)
check_grad(WeightedL2(), x, y)
assert isinstance(nn.MSELoss(), nn.LossBase) and issubclass(nn.L1Loss, nn.LossBase)
assert not isinstance(nn.Dense(1, 1), nn.LossBase)
raises(ValueError, WeightedL2, "avg", match="For 'WeightedL2', the 'reduction' must be in ['mean', 'sum', 'none']")
raises(ValueError, nn.HuberLoss, delta=0.0, match="'delta'")
raises(ValueError, nn.BCELoss(), Tensor(p), Tensor(q[:2]), match="must be equal to the shape")

# A loss in WithLossCell and a training step.
net = nn.Dense(3, 1)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.HuberLoss()), nn.SGD(net.trainable_params(), 0.1))
xs = Tensor(rng.standard_normal((8, 3)), ms.float32)
ys = Tensor(rng.standard_normal((8, 1)), ms.float32)
first = float(step(xs, ys).asnumpy())
for _ in range(20):
    last = float(step(xs, ys).asnumpy())
assert last < first, (first, last)
print("test_nn_losses: ok")
