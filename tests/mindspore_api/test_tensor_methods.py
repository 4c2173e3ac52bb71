"""Tensor methods gradstep adds in Python (MindSpore 2.2 signatures), operators, properties,
copy / deepcopy / pickle of Tensor and Parameter."""
import copy
import pickle

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor

from _check import close, raises

rng = np.random.default_rng(2)
x = rng.standard_normal((2, 3))
t = Tensor(x)

close(t.add(1.0), x + 1)
close(t.add(t, alpha=2), 3 * x)
close(t.sub(t), np.zeros_like(x))
close(t.mul(2.0), 2 * x)
close(t.div(2.0), x / 2)
close(t.neg(), -x)
close(t.abs(), np.abs(x))
close(t.pow(2), x ** 2)
close(t.square(), x ** 2)
close(t.reciprocal(), 1 / x)
close(t.abs().rsqrt(), 1 / np.sqrt(np.abs(x)))
close(t.sin(), np.sin(x))
close(t.cos(), np.cos(x))
close(t.tanh(), np.tanh(x))
close(t.sigmoid(), 1 / (1 + np.exp(-x)))
close(t.floor(), np.floor(x))
close(t.ceil(), np.ceil(x))
close(t.clamp(-0.5, 0.5), np.clip(x, -0.5, 0.5))
close(t.clip(-0.5, 0.5), np.clip(x, -0.5, 0.5))
for name, fn in [("equal", np.equal), ("ge", np.greater_equal), ("gt", np.greater), ("le", np.less_equal),
                 ("lt", np.less), ("ne", np.not_equal), ("maximum", np.maximum), ("minimum", np.minimum)]:
    close(getattr(t, name)(Tensor(x[::-1].copy())), fn(x, x[::-1]))
close(t.prod(), np.prod(x))
close(t.prod(1, True), np.prod(x, 1, keepdims=True))
close(t.std(), np.std(x))
close(t.var(1, 1), np.var(x, 1, ddof=1))
close((t > 0).all(), (x > 0).all())
close((t > 0).any(1), (x > 0).any(1))
close(t.cumsum(1), np.cumsum(x, 1))
close(t.cumsum(), np.cumsum(x))
close(t.argmax(1), np.argmax(x, 1))

# shapes
assert t.ravel().shape == (6,)
assert t.unsqueeze(1).shape == (2, 1, 3)
assert t.expand_as(Tensor(np.zeros((4, 2, 3)))).shape == (4, 2, 3)
assert t[:1].broadcast_to((5, 3)).shape == (5, 3)
assert t.permute(1, 0).shape == (3, 2) and t.permute((1, 0)).shape == (3, 2)
assert t.swapaxes(0, 1).shape == (3, 2)
close(t.tile((2,)), np.tile(x, 2))
close(t.tile((2, 1, 1)), np.tile(x, (2, 1, 1)))
close(t.repeat(2, 1), np.repeat(x, 2, 1))
close(t.repeat(2), np.repeat(x, 2))
close(t.flip((1,)), x[:, ::-1])
parts = t.split(1, 0)
assert len(parts) == 2 and parts[1].shape == (1, 3)
close(t.chunk(3, 1)[2], x[:, 2:])
close(t.gather(Tensor(np.array([2, 0])), 1), x[:, [2, 0]])
close(t.masked_fill(t > 0, 0.0), np.where(x > 0, 0, x))
close(t.where(t > 0, Tensor(0.0)), np.where(x > 0, x, 0))
vals, idx = t.topk(2)
close(vals, -np.sort(-x, 1)[:, :2])
vals, idx = t.sort(descending=True)
close(vals, -np.sort(-x, 1))
close(t.argsort(), np.argsort(x, 1))
close(Tensor(np.array([[0, 2], [3, 0]])).nonzero(), [[0, 1], [1, 0]])
assert t.T.shape == (3, 2) and t.view(3, 2).shape == (3, 2) and t.flatten().shape == (6,)
assert t.reshape(3, 2).shape == (3, 2) and t.transpose().shape == (3, 2)

# conversion and state
assert t.to(ms.float32).dtype == ms.float32
assert t.astype(ms.int32).dtype == ms.int32
assert t.tolist() == x.tolist()
assert Tensor(2.5).item() == 2.5
assert t.init_data() is t
close(t.fill(1.5), np.full_like(x, 1.5))
close(t.fills(2.0), np.full_like(x, 2.0))
z = t.copy()
assert z.zero_() is z
close(z, np.zeros_like(x))
close(t, x)  # the copy was zeroed, not t
assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and t.itemsize == 8 and t.nbytes == 48
assert t.strides == (24, 8) and Tensor(np.zeros((2, 3, 4), np.float32)).strides == (48, 16, 4)
f = Tensor.from_numpy(np.arange(3, dtype=np.float32))
assert isinstance(f, Tensor) and f.dtype == ms.float32
close(f, [0, 1, 2])
p = Parameter(Tensor(np.array([1.0, 2.0])), name="weight")
p.set_dtype(ms.float32)
assert p.dtype == ms.float32 and isinstance(p, Parameter)

# operators
close(t // 0.5, np.floor_divide(x, 0.5))
close(t % 0.5, np.mod(x, 0.5))
close(3.0 // Tensor(np.array([2.0, -2.0])), [1.0, -2.0])
close(~(t > 0), ~(x > 0))
close((t > 0) & (t < 1), (x > 0) & (x < 1))
close((t > 1) | (t < -1), (x > 1) | (x < -1))
close((t > 0) ^ (t > 1), (x > 0) ^ (x > 1))

# gradients flow through the methods
g = ms.grad(lambda a: (a.neg().square().cumsum(1) * a.sigmoid()).sum())(t)
eps = 1e-6


def f(a):
    return float((a.neg().square().cumsum(1) * a.sigmoid()).sum().asnumpy())


num = np.zeros_like(x)
for i in np.ndindex(x.shape):
    hi, lo = x.copy(), x.copy()
    hi[i] += eps
    lo[i] -= eps
    num[i] = (f(Tensor(hi)) - f(Tensor(lo))) / (2 * eps)
close(g, num, rtol=1e-5)

# copy, deepcopy, pickle
for c in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
    assert isinstance(c, Tensor) and c.dtype == t.dtype
    close(c, x)
w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w", requires_grad=False)
for c in (copy.copy(w), copy.deepcopy(w), pickle.loads(pickle.dumps(w))):
    assert type(c) is Parameter and c.name == "w" and c.requires_grad is False
    close(c, [1.0, 2.0])
c = copy.deepcopy(w)
c.set_data(Tensor(np.array([5.0, 5.0], np.float32)))
close(w, [1.0, 2.0])  # a deep copy owns its data
it = pickle.loads(pickle.dumps(Tensor(np.array([1, 2], np.int32))))
assert it.dtype == ms.int32
raises(TypeError, t.masked_fill, t, 0.0, match="For 'MaskedFill'")
print("ok")

# NumPy's reductions call the methods with its own keywords (out=None, keepdims, ddof)
assert bool(np.all(Tensor(np.array([1.0, 2.0])) > 0)) and not bool(np.any(Tensor(np.array([1.0, 2.0])) > 5))
close(np.prod(t, axis=1), np.prod(x, 1))
close(np.std(t, axis=0, ddof=1), np.std(x, 0, ddof=1))
close(np.var(t, keepdims=True), np.var(x, keepdims=True))
raises(TypeError, t.all, out=np.zeros(1), match="'out' argument is not supported")
print("numpy ok")

# more methods
base = Tensor(np.zeros((3, 2)))
close(base.index_add(0, Tensor(np.array([0, 2, 0])), Tensor(np.ones((3, 2)))), [[2, 2], [0, 0], [1, 1]])
close(Tensor(np.ones((2, 3, 4))).sum_to_size(3, 1), np.full((3, 1), 8.0))
close(Tensor(np.array([np.nan, 1.0])).nan_to_num(), [0.0, 1.0])
close(t.ptp(1), x.max(1) - x.min(1))
close(t.inv(), 1 / x)
close(t.diff(), np.diff(x))
close(t.logaddexp(t), x + np.log(2))
print("more ok")

# int() of a one-element Tensor is a Python int for every dtype (a bool Tensor's too: 1 or 0)
for value, expected in ((Tensor(True), 1), (Tensor(False), 0), (Tensor(np.array([2.7], np.float32)), 2),
                        (Tensor(np.array(-3, np.int64)), -3)):
    assert type(int(value)) is int and int(value) == expected, (value, int(value))
print("int ok")
