"""Tensor methods MindSpore documents that call an op: bitwise, select, scatter_* and inplace_*,
itemset, choose, lp_norm, determinants, ger / cdist, col2im, searchsorted on a scalar, and the
gradients that flow through them."""
import numpy as np

import mindspore as ms
from mindspore import Tensor
from _check import close, raises

rng = np.random.default_rng(7)
a = np.array([0, 0, 1, -1, 1, 1, 1], np.int16)
b = np.array([0, 1, 1, -1, -1, 2, 3], np.int16)
ta, tb = Tensor(a), Tensor(b)
assert (ta.bitwise_and(tb).asnumpy() == (a & b)).all() and (ta.bitwise_or(tb).asnumpy() == (a | b)).all()
assert (ta.bitwise_xor(tb).asnumpy() == (a ^ b)).all() and (ta.invert().asnumpy() == ~a).all()

x = rng.standard_normal((3, 4)).astype(np.float32)
cond = x > 0
close(Tensor(x).select(Tensor(cond), 2.0), np.where(cond, x, 2.0))
close(Tensor(x).select(Tensor(cond), Tensor(-x)), np.where(cond, x, -x))
raises(TypeError, Tensor(x).select, Tensor(cond), 2, match="the tensor type should be int32")

# scatter_*: repeated indices combine; inplace_*: rows, with a negative row index.
idx = Tensor(np.array([[0, 1], [0, 1], [2, 3]], np.int32))
upd = np.array([2.0, 3.0, -1.0], np.float32)
want = x.copy(); want[0, 1] *= 6.0; want[2, 3] *= -1.0
close(Tensor(x).scatter_mul(idx, Tensor(upd)), want)
want = x.copy(); want[0, 1] = min(x[0, 1], 2.0); want[2, 3] = min(x[2, 3], -1.0)
close(Tensor(x).scatter_min(idx, Tensor(upd)), want)
v = rng.standard_normal((2, 4)).astype(np.float32)
want = x.copy(); want[[0, 2]] = v
close(Tensor(x).inplace_update(Tensor(v), (0, -1)), want)
want = x.copy(); want[[0, 2]] -= v
close(Tensor(x).inplace_sub(Tensor(v), (0, 2)), want)
raises(ValueError, Tensor(x).inplace_add, Tensor(v), (0,), match="the shape of 'v' must be (1, 4)")

# itemset leaves the tensor alone and returns the changed copy; index as a tuple or flat.
t = Tensor(x)
want = x.copy(); want[1, 2] = 9.0
close(t.itemset((1, 2), 9.0), want)
close(t.itemset(6, 9.0), want)
close(t, x)
raises(IndexError, t.itemset, 1.0, match="must have one element")

c = Tensor(np.array([2, 3, 1, 0, 7, -1]))
choices = np.arange(24).reshape(4, 6)
assert (c.choose(Tensor(choices)).asnumpy() == choices[np.clip([2, 3, 1, 0, 7, -1], 0, 3), np.arange(6)]).all()
assert (c.choose(list(choices), mode="wrap").asnumpy() == choices[np.mod([2, 3, 1, 0, 7, -1], 4), np.arange(6)]).all()

y = rng.standard_normal((2, 3, 4)).astype(np.float32)
close(Tensor(y).lp_norm([0, 2], p=3), (np.abs(y) ** 3).sum((0, 2)) ** (1 / 3), rtol=1e-5)
close(Tensor(y).lp_norm(1, p=1, keep_dims=True), np.abs(y).sum(1, keepdims=True))
m = rng.standard_normal((2, 3, 3)).astype(np.float32)
close(Tensor(m).matrix_determinant(), np.linalg.det(m), rtol=1e-4)
sign, logdet = Tensor(m).log_matrix_determinant()
close(sign, np.sign(np.linalg.det(m)))
close(logdet, np.log(np.abs(np.linalg.det(m))), rtol=1e-4)
p, q = rng.standard_normal(4).astype(np.float32), rng.standard_normal(3).astype(np.float32)
close(Tensor(p).ger(Tensor(q)), np.outer(p, q))
u, w = rng.standard_normal((1, 3, 2)).astype(np.float32), rng.standard_normal((1, 4, 2)).astype(np.float32)
close(Tensor(u).cdist(Tensor(w)), np.sqrt(((u[:, :, None] - w[:, None]) ** 2).sum(-1)), rtol=1e-5)

# col2im: non-overlapping 2x2 blocks of a 4x4 plane put back in place.
plane = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
blocks = plane.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(1, 2, 4, 4)
close(Tensor(blocks).col2im(Tensor(np.array([4, 4], np.int32)), 2, 1, 0, 2), plane)

s = Tensor(np.array([1, 2, 3, 4, 5]))
assert s.searchsorted(3).shape == () and int(s.searchsorted(3, side="right").asnumpy()) == 3
assert (s.searchsorted(Tensor(np.array([0, 5]))).asnumpy() == [0, 4]).all()
shuffled = Tensor(np.array([4.0, 1.0, 3.0]))
assert int(shuffled.searchsorted(2.0, sorter=[1, 2, 0]).asnumpy()) == 1

# Gradients reach the right elements.
g = ms.grad(lambda t: t.inplace_update(Tensor(v), (0, 2)).sum())(Tensor(x))
close(g, np.array([[0] * 4, [1] * 4, [0] * 4], np.float32))
g = ms.grad(lambda t: t.lp_norm(1, p=2).sum())(Tensor(x))
close(g, x / np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-5)

# The methods that are the op of the same name with the tensor first, against NumPy.
f = rng.standard_normal((3, 4)).astype(np.float32)
h = rng.standard_normal((3, 4)).astype(np.float32)
tf, th = Tensor(f), Tensor(h)
close(tf.hypot(th), np.hypot(f, h))
close(tf.copysign(th), np.copysign(f, h))
close(tf.fmax(th), np.fmax(f, h))
close(tf.logaddexp2(th), np.logaddexp2(f, h), rtol=1e-5)
close(tf.rot90(1, (0, 1)), np.rot90(f, 1, (0, 1)))
close(tf.movedim(0, 1), np.moveaxis(f, 0, 1))
close(tf.msort(), np.sort(f, 0))
close(tf.t(), f.T)
close(tf.heaviside(Tensor(np.float32(0.5))), np.heaviside(f, 0.5))
close(Tensor(f[0]).diagflat(), np.diagflat(f[0]))
sq = f[:3, :3] + 3 * np.eye(3, dtype=np.float32)
close(Tensor(sq).inverse(), np.linalg.inv(sq), rtol=1e-4, atol=1e-5)
close(Tensor(sq).det(), np.linalg.det(sq), rtol=1e-4)
close(Tensor(f[:, :3]).cross(Tensor(h[:, :3]), 1), np.cross(f[:, :3], h[:, :3]), rtol=1e-5)
i, j = np.array([12, 18, -7]), np.array([8, 27, 21])
assert (Tensor(i).gcd(Tensor(j)).asnumpy() == np.gcd(i, j)).all() and (Tensor(i).lcm(Tensor(j)).asnumpy() == np.lcm(i, j)).all()
assert (Tensor(i.astype(np.int32)).bitwise_left_shift(Tensor(np.int32(2))).asnumpy() == i * 4).all()
seg = Tensor(np.array([0, 2, 0], np.int32))
close(tf.unsorted_segment_max(seg, 3)[[0, 2]], np.stack([np.maximum(f[0], f[2]), f[1]]))
assert (tf.eq(tf).asnumpy()).all()

# The rest written here: nanmean, fill_diagonal, masked_scatter, cholesky_solve, index_put.
nan = f.copy(); nan[0, 1] = nan[2, 2] = np.nan
close(Tensor(nan).nanmean(1), np.nanmean(nan, 1))
close(Tensor(nan).nanmean(), np.nanmean(nan))
tall = np.zeros((7, 3), np.float32)
want = tall.copy(); np.fill_diagonal(want, 5.0, wrap=True)
close(Tensor(tall).fill_diagonal(5.0, wrap=True), want)
mask = f > 0
src = np.arange(12, dtype=np.float32)
want = f.copy(); want[mask] = src[:mask.sum()]
close(tf.masked_scatter(Tensor(mask), Tensor(src)), want)
spd = sq @ sq.T
chol = np.linalg.cholesky(spd).astype(np.float32)
close(Tensor(h[:3]).cholesky_solve(Tensor(chol)), np.linalg.solve(spd, h[:3]), rtol=1e-3, atol=1e-4)
rows, cols = Tensor(np.array([0, 2, 0])), Tensor(np.array([1, 3, 1]))
want = f.copy(); np.add.at(want, ([0, 2, 0], [1, 3, 1]), 1.0)
close(tf.index_put((rows, cols), Tensor(np.float32(1.0)), accumulate=True), want)
want = f.copy(); want[[2, 1], [-1, 0]] = [7.0, 8.0]
close(tf.index_put((Tensor(np.array([2, 1])), Tensor(np.array([-1, 0]))), Tensor(np.array([7.0, 8.0], np.float32))), want)
vals, where = Tensor(nan).nanmedian(1)
ref = np.array([sorted(r[~np.isnan(r)])[(np.sum(~np.isnan(r)) - 1) // 2] for r in nan], np.float32)
close(vals, ref)
assert (nan[np.arange(3), where.asnumpy()] == ref).all()
vals, _ = Tensor(nan).nanmedian(0, keepdims=True)
assert vals.shape == (1, 4)

# In graph mode the values that decide masked_scatter's positions are read as the function compiles.
@ms.jit
def scatter_sum(t, m):
    return t.masked_scatter(m, t * 2).sum() + t.lp_norm(0).sum() + t.select(m, 1.0).sum()


g6 = np.arange(6, dtype=np.float32).reshape(2, 3)
m6 = np.array([[True, False, True], [False, True, False]])
want = g6.copy(); want[m6] = (g6 * 2).reshape(-1)[:3]
close(scatter_sum(Tensor(g6), Tensor(m6)), want.sum() + np.linalg.norm(g6, axis=0).sum() + np.where(m6, g6, 1.0).sum())
close(Tensor(f).quantile(0.25, axis=1), np.quantile(f, 0.25, axis=1), rtol=1e-5)
close(Tensor(nan).nanquantile(0.5, axis=0, keepdims=True), np.nanquantile(nan, 0.5, axis=0, keepdims=True), rtol=1e-5)
