"""The primitive classes gradstep adds in Python: MindSpore's constructor attributes, input and
output structures, isinstance / .name like the C++ ones, gradients, errors."""
import numpy as np

import mindspore as ms
import mindspore.ops as ops
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P
from mindspore.ops.operations import nn_ops

from _check import close, raises

rng = np.random.default_rng(5)
x = rng.standard_normal((2, 3))
t = Tensor(x)

for name in ["L2Loss", "GeLU", "FastGeLU", "GatherD", "BinaryCrossEntropy", "NLLLoss", "SmoothL1Loss", "PReLU",
             "Shape", "Dense", "Erfc", "Elu", "HSwish", "HSigmoid", "ReLU6", "LeakyReLU", "Softsign", "SeLU",
             "Split", "Unique", "TensorAdd", "Floor", "Ceil", "Reciprocal", "CumSum", "CumProd", "ReduceProd",
             "ReduceAll", "ReduceAny", "LayerNorm", "Pad", "Tril", "Triu", "TopK", "Sort", "ScatterNd", "GatherNd",
             "TensorScatterUpdate", "TensorScatterAdd", "Depend", "Assign", "AssignAdd", "UniformReal",
             "StandardNormal", "L2Normalize", "BatchNorm", "KLDivLoss", "StridedSlice", "Slice"]:
    cls = getattr(P, name)
    assert getattr(ops, name) is cls and getattr(nn_ops, name) is cls, name
    assert issubclass(cls, ops.Primitive), name

assert P.L2Loss().name == "L2Loss"
close(P.L2Loss()(t), (x ** 2).sum() / 2)
close(ms.grad(lambda a: P.L2Loss()(a))(t), x)
close(P.GeLU()(t), 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))))  # the tanh form
xg = np.array([0.58401114, 0.68800163])
close(ms.grad(lambda a: P.GeLU()(a).sum())(Tensor(xg)), [0.91667192, 0.97065255], rtol=1e-6)
close(P.Erfc()(t), 1 - ops.erf(t).asnumpy())
close(P.Floor()(t), np.floor(x))
close(P.Ceil()(t), np.ceil(x))
close(P.Reciprocal()(t), 1 / x)
close(P.ReLU6()(t * 5), np.clip(x * 5, 0, 6))
close(P.LeakyReLU(0.1)(t), np.where(x > 0, x, 0.1 * x))
close(P.Elu()(t), np.where(x > 0, x, np.expm1(x)))
raises(ValueError, P.Elu, 0.5, match="For 'Elu', the 'alpha' only supports 1.0")
close(P.TensorAdd()(t, t), 2 * x)
xp = rng.standard_normal((2, 3, 4))
close(P.PReLU()(Tensor(xp), Tensor(np.array([0.1, 0.2, 0.3]))),
      np.where(xp > 0, xp, xp * np.array([0.1, 0.2, 0.3]).reshape(1, 3, 1)))

assert P.Shape()(t) == (2, 3)
parts = P.Split(1, 3)(t)
assert isinstance(parts, tuple) and len(parts) == 3 and parts[0].shape == (2, 1)
assert P.Split(axis=1, output_num=3).attrs == {"axis": 1, "output_num": 3}
raises(ValueError, P.Split(1, 2), t, match="For 'Split'")
raises(ValueError, P.Split, 0, 0, match="For 'Split', the 'output_num' must be greater than or equal to 1")

# Dense: x @ w.T + b, integer inputs stay integer
w, b = rng.standard_normal((4, 3)), rng.standard_normal(4)
close(nn_ops.Dense()(t, Tensor(w), Tensor(b)), x @ w.T + b)
close(nn_ops.Dense()(Tensor(x[0]), Tensor(w)), x[0] @ w.T)
xi = Tensor(np.array([[1, 2, 3]], np.int32))
wi = Tensor(np.array([[1, 0, 1], [2, 2, 2]], np.int32))
out = nn_ops.Dense()(xi, wi, Tensor(np.array([1, -1], np.int32)))
close(out, [[5, 11]])
assert out.dtype == ms.int32
gx, gw, gb = ms.grad(lambda a, c, d: nn_ops.Dense()(a, c, d).sum(), grad_position=(0, 1, 2))(t, Tensor(w), Tensor(b))
close(gx, np.ones((2, 4)) @ w)
close(gw, np.ones((4, 2)) @ x)
close(gb, [2.0] * 4)

# reductions and scans
close(P.ReduceProd()(t, 1), np.prod(x, 1))
close(P.ReduceProd(keep_dims=True)(t), np.prod(x, keepdims=True))
close(P.ReduceAll()(t > -5, 1), [True, True])
close(P.ReduceAny(True)(t > 10), [[False]])
close(P.CumSum()(t, 1), np.cumsum(x, 1))
close(P.CumSum(exclusive=True)(t, 1), np.cumsum(x, 1) - x)
close(P.CumSum(reverse=True)(t, 1), np.cumsum(x[:, ::-1], 1)[:, ::-1])
close(P.CumProd()(t, 0), np.cumprod(x, 0))
close(P.CumProd(exclusive=True, reverse=True)(t, 1),
      np.concatenate([np.cumprod(x[:, ::-1], 1)[:, :-1][:, ::-1], np.ones((2, 1))], 1))

# shapes and indexing
close(P.Pad(((1, 0), (0, 2)))(t), np.pad(x, ((1, 0), (0, 2))))
raises(ValueError, P.Pad, ((1, -1),), match="For 'Pad'")
close(P.Tril()(t), np.tril(x))
close(P.Triu(1)(t), np.triu(x, 1))
close(P.GatherD()(t, 1, Tensor(np.array([[2, 0], [1, 1]], np.int32))), [[x[0, 2], x[0, 0]], [x[1, 1], x[1, 1]]])
close(P.GatherNd()(t, Tensor(np.array([[1, 2]]))), [x[1, 2]])
close(P.ScatterNd()(Tensor(np.array([[0], [0]])), Tensor(np.array([1.0, 2.0])), (2,)), [3.0, 0.0])
close(P.TensorScatterUpdate()(t, Tensor(np.array([[0, 0]])), Tensor(np.array([9.0]))), np.where(
    np.arange(6).reshape(2, 3) == 0, 9.0, x))
close(P.TensorScatterAdd()(t, Tensor(np.array([[1, 2]])), Tensor(np.array([1.0]))), x + (np.arange(6).reshape(2, 3) == 5))
close(P.StridedSlice()(t, (0, 1), (2, 3), (1, 1)), x[:, 1:3])
close(P.StridedSlice(shrink_axis_mask=1)(t, (1, 0), (2, 3), (1, 2)), x[1, 0:3:2])
close(P.StridedSlice(end_mask=2)(t, (0, 1), (1, 0), (1, 1)), x[0:1, 1:])
close(P.Slice()(t, (1, 0), (1, -1)), x[1:2, :])
y, idx = P.Unique()(Tensor(np.array([3, 1, 3], np.int32)))
close(y, [3, 1])
close(idx, [0, 1, 0])
vals, ind = P.TopK()(t, 2)
close(vals, -np.sort(-x, 1)[:, :2])
vals, ind = P.Sort(axis=0, descending=True)(t)
close(vals, -np.sort(-x, 0))

# losses
p = 1 / (1 + np.exp(-x))
lab = rng.random((2, 3))
bce = -(lab * np.log(p) + (1 - lab) * np.log(1 - p))
close(P.BinaryCrossEntropy()(Tensor(p), Tensor(lab)), bce.mean())
close(P.BinaryCrossEntropy("none")(Tensor(p), Tensor(lab), Tensor(np.full((2, 3), 2.0))), 2 * bce)
raises(ValueError, P.BinaryCrossEntropy, "avg", match="'reduction' must be one of")
logp = x - np.log(np.exp(x).sum(1, keepdims=True))
wt = np.array([1.0, 2.0, 3.0])
loss, total = P.NLLLoss()(Tensor(logp), Tensor(np.array([2, 0], np.int32)), Tensor(wt))
close(total, 4.0)
close(loss, -(logp[0, 2] * 3 + logp[1, 0] * 1) / 4)
loss, total = P.NLLLoss("none")(Tensor(logp), Tensor(np.array([2, 0], np.int32)), Tensor(wt))
close(loss, [-logp[0, 2] * 3, -logp[1, 0]])
d = x - lab
close(P.SmoothL1Loss()(t, Tensor(lab)), np.where(np.abs(d) < 1, 0.5 * d * d, np.abs(d) - 0.5))
close(P.SmoothL1Loss(beta=0.5, reduction="sum")(t, Tensor(lab)), np.where(np.abs(d) < 0.5, d * d, np.abs(d) - 0.25).sum())
q = np.exp(logp)
close(P.KLDivLoss("sum")(Tensor(logp), Tensor(q)), 0.0, atol=1e-9)

# normalisation
y, mean, var = P.LayerNorm(1, 1, 1e-7)(t, Tensor(np.ones(3)), Tensor(np.zeros(3)))
close(mean, x.mean(1, keepdims=True))
close(var, x.var(1, keepdims=True))
close(y, (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-7))
close(P.L2Normalize(axis=1)(t), x / np.linalg.norm(x, axis=1, keepdims=True))
assert P.L2Normalize(axis=1).attrs["axis"] == [1]
xb = rng.standard_normal((4, 3, 2, 2))
mean_p, var_p = Parameter(Tensor(np.zeros(3)), name="m"), Parameter(Tensor(np.ones(3)), name="v")
outs = P.BatchNorm(is_training=True, momentum=0.1)(Tensor(xb), Tensor(np.ones(3)), Tensor(np.zeros(3)), mean_p, var_p)
assert isinstance(outs, tuple) and len(outs) == 5
bm, bv = xb.mean((0, 2, 3)), xb.var((0, 2, 3))
close(outs[0], (xb - bm.reshape(1, 3, 1, 1)) / np.sqrt(bv.reshape(1, 3, 1, 1) + 1e-5))
close(outs[1], bm)
close(mean_p, 0.1 * bm)
outs = P.BatchNorm()(Tensor(xb), Tensor(np.ones(3)), Tensor(np.zeros(3)), Tensor(bm), Tensor(bv))
close(outs[0], (xb - bm.reshape(1, 3, 1, 1)) / np.sqrt(bv.reshape(1, 3, 1, 1) + 1e-5))

# state and random
pw = Parameter(Tensor(np.array([1.0, 2.0])), name="pw")
P.Assign()(pw, Tensor(np.array([3.0, 4.0])))
P.AssignAdd()(pw, Tensor(np.array([1.0, 1.0])))
close(pw, [4.0, 5.0])
close(P.Depend()(t, pw), x)
u = P.UniformReal(seed=2)((3, 4))
assert u.shape == (3, 4) and u.dtype == ms.float32 and (u.asnumpy() >= 0).all() and (u.asnumpy() < 1).all()
assert P.UniformReal(seed=2).attrs == {"seed": 2, "seed2": 0}
assert P.StandardNormal(seed=1)((5,)).shape == (5,)
raises(ValueError, P.StandardNormal, -1, match="For 'StandardNormal', the 'seed' must be greater than or equal to 0")
print("ok")
