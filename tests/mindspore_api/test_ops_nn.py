"""Normalisation, losses, einsum, assignment and random ops of mindspore.ops: values against
NumPy / closed forms, gradients against finite differences in float64, seed rules."""
import math

import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Parameter, Tensor

from _check import check_grad, close, fd_grad, raises

rng = np.random.default_rng(11)




# ---- einsum
A, B, C = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5)), rng.standard_normal((3, 3))
v = rng.standard_normal(3)
for eq, args in [("bij,bjk->bik", (A, B)), ("bij->bji", (A,)), ("ii->i", (C,)), ("ii", (C,)), ("ij,ij->", (C, C)),
                 ("i,j->ij", (v, v)), ("...ij,...jk", (A, B)), ("bij,bkj->bik", (A, A)), ("bij->j", (A,)),
                 ("ij,j->i", (C, v)), ("bij,bjk,bkl->bil", (A, B, rng.standard_normal((2, 5, 2))))]:
    close(ops.einsum(eq, *[Tensor(a) for a in args]), np.einsum(eq, *args), rtol=1e-10)
check_grad(lambda a: ops.einsum("bij,bjk->bik", a, Tensor(B)).sum(), A)
raises(ValueError, ops.einsum, "ij,jk->ik", Tensor(C), match="For 'Einsum'")
close(ops.tensor_dot(Tensor(A), Tensor(B), ((2,), (1,))), np.tensordot(A, B, ((2,), (1,))))
close(ops.kron(Tensor(C), Tensor(np.eye(2))), np.kron(C, np.eye(2)))
close(ops.batch_matmul(Tensor(A), Tensor(A), transpose_b=True), A @ A.transpose(0, 2, 1))

# ---- normalisation
x = rng.standard_normal((4, 6))
mu, sd = x.mean(1, keepdims=True), np.sqrt(x.var(1, keepdims=True) + 1e-5)
gamma, beta = rng.standard_normal(6), rng.standard_normal(6)
close(ops.layer_norm(Tensor(x), (6,), Tensor(gamma), Tensor(beta)), (x - mu) / sd * gamma + beta)
check_grad(lambda a: (ops.layer_norm(a, (6,)) * Tensor(np.arange(24.0).reshape(4, 6))).sum(), x)
xg = rng.standard_normal((2, 4, 3))
grp = xg.reshape(2, 2, 6)
want = ((grp - grp.mean(2, keepdims=True)) / np.sqrt(grp.var(2, keepdims=True) + 1e-5)).reshape(2, 4, 3)
close(ops.group_norm(Tensor(xg), 2), want)
raises(ValueError, ops.group_norm, Tensor(xg), 3, match="divisible by 'num_groups'")
close(ops.instance_norm(Tensor(xg)), (xg - xg.mean(2, keepdims=True)) / np.sqrt(xg.var(2, keepdims=True) + 1e-5))
close(ops.l2_normalize(Tensor(x), 1), x / np.linalg.norm(x, axis=1, keepdims=True))
close(ops.normalize(Tensor(x), 2.0, 1), x / np.linalg.norm(x, axis=1, keepdims=True))
check_grad(lambda a: (ops.l2_normalize(a, 1) * Tensor(np.arange(24.0).reshape(4, 6))).sum(), x)
# batch_norm: training uses the batch statistics and updates the running ones (unbiased variance)
xb = rng.standard_normal((5, 3, 2))
rm, rv = Parameter(Tensor(np.zeros(3)), name="rm"), Parameter(Tensor(np.ones(3)), name="rv")
y = ops.batch_norm(Tensor(xb), rm, rv, Tensor(np.ones(3)), Tensor(np.zeros(3)), training=True, momentum=0.1)
m, var = xb.mean((0, 2)), xb.var((0, 2))
close(y, (xb - m.reshape(1, 3, 1)) / np.sqrt(var.reshape(1, 3, 1) + 1e-5))
close(rm, 0.1 * m)
close(rv, 0.9 + 0.1 * xb.var((0, 2), ddof=1))
y = ops.batch_norm(Tensor(xb), Tensor(m), Tensor(var), Tensor(np.ones(3) * 2), Tensor(np.ones(3)))
close(y, 2 * (xb - m.reshape(1, 3, 1)) / np.sqrt(var.reshape(1, 3, 1) + 1e-5) + 1)

# ---- losses
logits = rng.standard_normal((4, 5))
labels = np.array([1, 0, 4, 2])
logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
w = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
close(ops.nll_loss(Tensor(logp), Tensor(labels)), -logp[range(4), labels].mean())
close(ops.nll_loss(Tensor(logp), Tensor(labels), Tensor(w)),
      -(logp[range(4), labels] * w[labels]).sum() / w[labels].sum())
ign = np.array([1, -100, 4, 2])
keep = ign != -100
close(ops.nll_loss(Tensor(logp), Tensor(ign), reduction="sum"), -logp[np.arange(4)[keep], ign[keep]].sum())
close(ops.cross_entropy(Tensor(logits), Tensor(ign)), -logp[np.arange(4)[keep], ign[keep]].mean())
ls = 0.1
smooth = -(1 - ls) * logp[range(4), labels] - ls / 5 * logp.sum(1)
close(ops.cross_entropy(Tensor(logits), Tensor(labels), label_smoothing=ls), smooth.mean())
soft = np.eye(5)[labels] * (1 - ls) + ls / 5
close(ops.cross_entropy(Tensor(logits), Tensor(np.eye(5)[labels]), label_smoothing=ls), -(soft * logp).sum(1).mean())
check_grad(lambda a: ops.cross_entropy(a, Tensor(ign), Tensor(w)), logits)
p = 1 / (1 + np.exp(-logits))
tgt = rng.random((4, 5))
bce = -(tgt * np.log(p) + (1 - tgt) * np.log(1 - p))
close(ops.binary_cross_entropy(Tensor(p), Tensor(tgt)), bce.mean())
close(ops.binary_cross_entropy(Tensor(p), Tensor(tgt), Tensor(w), "none"), bce * w)
check_grad(lambda a: ops.binary_cross_entropy(ops.sigmoid(a), Tensor(tgt)), logits)
raises(ValueError, ops.binary_cross_entropy, Tensor(p), Tensor(tgt[:2]), match="For 'BinaryCrossEntropy'")
q = np.exp(logp)
close(ops.kl_div(Tensor(logp), Tensor(q[::-1].copy()), "sum"), (q[::-1] * (np.log(q[::-1]) - logp)).sum())
close(ops.kl_div(Tensor(logp), Tensor(q), "batchmean"), (q * (np.log(q) - logp)).sum() / 4)
d = logits - tgt
close(ops.smooth_l1_loss(Tensor(logits), Tensor(tgt)), np.where(np.abs(d) < 1, 0.5 * d * d, np.abs(d) - 0.5))
close(ops.smooth_l1_loss(Tensor(logits), Tensor(tgt), 0.5, "mean"),
      np.where(np.abs(d) < 0.5, d * d, np.abs(d) - 0.25).mean())
raises(ValueError, ops.smooth_l1_loss, Tensor(logits), Tensor(tgt), 0.0, match="'beta' must be greater than 0")
close(ops.huber_loss(Tensor(logits), Tensor(tgt), delta=2.0),
      np.where(np.abs(d) < 2, 0.5 * d * d, 2 * (np.abs(d) - 1)).mean())
a1, a2 = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
close(ops.cosine_similarity(Tensor(a1), Tensor(a2)),
      (a1 * a2).sum(1) / np.linalg.norm(a1, axis=1) / np.linalg.norm(a2, axis=1))
raises(ValueError, ops.nll_loss, Tensor(logp), Tensor(labels), reduction="avg", match="'reduction' must be one of")

# ---- depend, assign
pw = Parameter(Tensor(np.array([1.0, 2.0])), name="w")
assert ops.depend(Tensor(3.0), pw) is not None
ops.assign(pw, Tensor(np.array([5.0, 6.0])))
close(pw, [5.0, 6.0])
ops.assign_add(pw, Tensor(np.array([1.0, 1.0])))
close(pw, [6.0, 7.0])
ops.assign_sub(pw, Tensor(np.array([2.0, 2.0])))
close(pw, [4.0, 5.0])
assert isinstance(pw, Parameter) and pw.name == "w"
raises(TypeError, ops.assign, Tensor(np.zeros(2)), Tensor(np.ones(2)), match="For 'Assign', the 'variable' must be a Parameter")

# ---- random ops and seeds
ms.set_seed(5)
u1 = ops.uniform((2, 3), Tensor(1.0), Tensor(2.0))
u2 = ops.uniform((2, 3), Tensor(1.0), Tensor(2.0))
assert u1.shape == (2, 3) and u1.dtype == ms.float32
assert ((u1.asnumpy() >= 1) & (u1.asnumpy() < 2)).all()
assert not np.array_equal(u1.asnumpy(), u2.asnumpy())  # successive calls differ
assert ops.standard_normal((1000,), seed=3).asnumpy().std() > 0.9
r = ops.randint(0, 5, (200,))
assert r.dtype == ms.int64 and 0 <= r.asnumpy().min() and r.asnumpy().max() <= 4
b = ops.bernoulli(Tensor(np.zeros(100)), 0.25)
assert 0 < b.asnumpy().mean() < 0.6 and set(np.unique(b.asnumpy())) <= {0.0, 1.0}
probs = Tensor(np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]))
mn = ops.multinomial(probs, 4)
assert mn.shape == (2, 4) and (mn.asnumpy()[0] == 1).all() and set(mn.asnumpy()[1]) <= {0, 2}
raises(ValueError, ops.multinomial, probs, 4, False, match="For 'multinomial'")
raises(ValueError, ops.randint, 3, 3, (2,), match="For 'randint', the 'low' must be less than 'high'")
# the same global seed gives the same numbers (a fresh stream per run and per seed)
import mindspore.ops._functional_random as _R  # noqa: E402
ms.set_seed(9)
_R._gradstep_reset()
first = ops.uniform((3,), Tensor(0.0), Tensor(1.0)).asnumpy()
_R._gradstep_reset()
again = ops.uniform((3,), Tensor(0.0), Tensor(1.0)).asnumpy()
assert np.array_equal(first, again)
print("ok")

# inside a compiled function the write is the graph's: it repeats on every run, and a read after
# it sees the new value
counter = Parameter(Tensor(np.zeros(2)), name="counter")


class Accumulate(ms.nn.Cell):
    def construct(self, x):
        ops.assign_add(counter, x)
        return counter * 1.0


ms.set_context(mode=ms.GRAPH_MODE)
step = Accumulate()
close(step(Tensor(np.ones(2))), [1.0, 1.0])
close(step(Tensor(np.ones(2))), [2.0, 2.0])
assert ms._jit_stats()["fallbacks"] == 0
ms.set_context(mode=ms.PYNATIVE_MODE)
Accumulate()(Tensor(np.ones(2)))
close(counter, [3.0, 3.0])
print("graph refusal ok")
